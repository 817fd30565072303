"""A learned skill taught by its scripted controller (skills.imitate): what is recorded, the packed layout
the LSTM learns from, the fit, and the written file."""

from __future__ import annotations

import copy
from pathlib import Path

import numpy as np
import pytest
import torch

from skills.imitate import Episode, _packed, _student, _zeros, fit, imitate, record
from skills.policy import ActionLayout
from skills.registry import make_env
from skills.scripted import make_scripted
from skills.ship import CHECKPOINT_DIR
from skills.warmstart import WarmStartError, load_source
from tpsrl.engine import checkpoint

PICK = CHECKPOINT_DIR / "pick.pt"
MLP_PICK = Path(__file__).parents[2] / "docs/results/runs/pick_control/checkpoints/latest.pt"


def _setup(tmp_path: Path, max_steps: int) -> tuple:
    _, skill, fields = load_source(PICK, tmp_path / "unused.pt")
    env = make_env(skill, **{**fields, "max_steps": max_steps})
    student = _student(PICK)
    return env, student, make_scripted(skill)


def test_record_labels_the_teachers_steps_and_keeps_the_executed_previous_action(tmp_path: Path) -> None:
    env, student, teacher = _setup(tmp_path, max_steps=40)
    grip = ActionLayout.of(env).slices["grip_action"].start
    try:
        episode, _ = record(env, student, teacher, 11, None, student.keys)
        assert episode is not None and len(episode.label) == 40
        assert np.all(episode.prev_action[0] == 0) and np.array_equal(
            episode.prev_action[1:], episode.target[:-1]
        )
        others = [i for i in range(episode.label.shape[1]) if i != grip]
        assert np.all(episode.label[:, others] == 1)  # the teacher acts from the start: every other dim
        off = episode.target[:, grip] <= 0  # nothing is held in 40 steps: its suction off is no label
        assert off.any() and np.all(episode.label[off, grip] == 0)
        late, _ = record(env, student, teacher, 11, 15, student.keys)
        assert late is not None and np.all(late.label[:15] == 0) and np.all(late.label[15:, others] == 1)
        # with noise the executed (previous) actions leave the labels, which stay the teacher's own
        noisy, _ = record(env, student, teacher, 11, None, student.keys, noise=0.3)
        assert noisy is not None and np.array_equal(noisy.target[0], episode.target[0])
        executed = noisy.prev_action[1:]
        assert 0.1 < np.abs(executed - noisy.target[:-1]).mean() < 0.4
        assert np.all(np.abs(executed) <= 1.0)
    finally:
        env.close()


def test_place_is_taught_through_end_effector_steps_and_its_release_is_a_label(tmp_path: Path) -> None:
    # The shipped place moves its arm by end-effector steps; the scripted place's joint actions become the
    # nearest of those (skills.scripted.control.Robot.ee_step). Its episodes start holding the object, so
    # the teacher's suction off (the release) is a label: a student that kept its grip on would pick the
    # object up again.
    place = CHECKPOINT_DIR / "place.pt"
    _, skill, fields = load_source(place, tmp_path / "unused.pt")
    assert fields["arm_control"] == "ee"
    env, student = make_env(skill, **fields), _student(place)
    try:
        episode, ok = record(env, student, make_scripted(skill), 5, None, student.keys)
    finally:
        env.close()
    grip = ActionLayout.of(env).slices["grip_action"].start
    assert ok and episode is not None and episode.target.shape[1] == 6  # 3 EE, grip, 2 base
    assert np.all(episode.label == 1)
    released = episode.target[:, grip] <= 0
    assert released.any() and not released[0]


def test_packed_steps_give_the_means_the_policy_acts_with_step_by_step(tmp_path: Path) -> None:
    env, student, teacher = _setup(tmp_path, max_steps=25)
    try:
        episodes = [record(env, student, teacher, s, None, student.keys)[0] for s in (3, 4)]
    finally:
        env.close()
    episodes[1] = Episode(  # another length: the packed layout sorts and pads
        {k: v[:17] for k, v in episodes[1].obs.items()},
        episodes[1].prev_action[:17],
        episodes[1].target[:17],
        episodes[1].label[:17],
    )
    policy = student.policy
    obs, prev, _, _, mask = _packed(episodes)
    with torch.no_grad():
        core = policy.actor_body.sequences(policy.normalize_obs(obs), prev, mask, _zeros(policy, mask))
        packed = policy.actor(core)
    stepwise = []  # row-major over the [L, K] mask, longest episode first
    means = []
    for e in episodes:
        state, rows = torch.zeros(1, *policy.state_shape()), []
        for t in range(len(e.label)):
            x = {k: torch.as_tensor(v[t])[None] for k, v in e.obs.items()}
            mean, _, _, state = policy.act(
                x, torch.as_tensor(e.prev_action[t])[None], state, deterministic=True
            )
            rows.append(mean[0])
        means.append(rows)
    for t in range(mask.shape[0]):
        stepwise += [means[k][t] for k in range(len(episodes)) if t < len(means[k])]
    assert torch.allclose(packed, torch.stack(stepwise), atol=1e-5)


@pytest.fixture
def one_thread():
    threads = torch.get_num_threads()
    torch.set_num_threads(1)  # as `imitate` runs: on a busy machine more threads wait for each other
    yield
    torch.set_num_threads(threads)


def test_fit_moves_the_mean_toward_the_labels_and_holds_the_values(tmp_path: Path, one_thread) -> None:
    env, student, teacher = _setup(tmp_path, max_steps=30)
    try:
        episodes = [record(env, student, teacher, s, None, student.keys)[0] for s in (5, 6)]
    finally:
        env.close()
    low, high = torch.as_tensor(student.low), torch.as_tensor(student.high)
    frozen = copy.deepcopy(student.policy)
    drift = {}
    for weight in (0.0, 1.0):
        policy, generator = copy.deepcopy(frozen), torch.Generator().manual_seed(0)
        first = fit(policy, frozen, episodes, 1, 1e-3, 2, weight, low, high, generator)
        last = fit(policy, frozen, episodes, 20, 1e-3, 2, weight, low, high, generator)
        assert last["action"] < 0.5 * first["action"]
        drift[weight] = last["value"]
        kept = {k: v for k, v in policy.state_dict().items() if k.startswith("obs_norm") or k == "log_std"}
        assert all(torch.equal(v, frozen.state_dict()[k]) for k, v in kept.items())
        reads = policy.actor_body.core.lstm.weight_ih_l0[:, -policy.action_dim :]
        assert torch.all(reads == 0)  # blind to its previous action, after every step
    assert drift[1.0] < 0.5 * drift[0.0]  # the value term holds the critic's outputs where they were


def test_imitate_writes_a_new_file_with_its_rounds_and_refuses_bad_input(tmp_path: Path) -> None:
    out = tmp_path / "taught.pt"
    with pytest.raises(WarmStartError, match="rounds=0"):
        imitate(PICK, out, rounds=0)
    lines: list[dict] = []
    imitate(PICK, out, rounds=1, episodes=1, epochs=1, log=lines.append)
    data, source = checkpoint.read(out), checkpoint.read(PICK)
    entry = data["provenance"][-1]
    assert entry["derived"] == "imitate" and entry["teacher"] == "scripted:pick" and entry["rounds"] == lines
    assert lines[0]["episodes"] == 1 and lines[0]["labels"] > 0
    assert checkpoint.trained_env_steps(data) == checkpoint.trained_env_steps(source)
    assert not torch.equal(data["model"]["actor.weight"], source["model"]["actor.weight"])
    assert torch.equal(data["model"]["log_std"], source["model"]["log_std"])
    with pytest.raises(WarmStartError, match="exists"):
        imitate(PICK, out, rounds=1, episodes=1)
    with pytest.raises(WarmStartError, match="manipulation skill"):
        imitate(CHECKPOINT_DIR / "nav_to_obj.pt", tmp_path / "nav.pt")
    mlp = imitate(MLP_PICK, tmp_path / "mlp.pt", rounds=1, episodes=1, epochs=1)  # a feed-forward student
    taught, before = checkpoint.read(mlp), checkpoint.read(MLP_PICK)
    assert taught["provenance"][-1]["derived"] == "imitate"
    assert not torch.equal(taught["model"]["actor.weight"], before["model"]["actor.weight"])


def test_own_weight_holds_the_mean_action_on_the_students_own_steps(tmp_path: Path, one_thread) -> None:
    env, student, teacher = _setup(tmp_path, max_steps=30)
    try:
        episodes = [record(env, student, teacher, s, None, student.keys)[0] for s in (5, 6)]
    finally:
        env.close()
    for e in episodes:  # the first half of each episode the student's own: no label there
        e.label[: len(e.label) // 2] = 0.0
    low, high = torch.as_tensor(student.low), torch.as_tensor(student.high)
    frozen = copy.deepcopy(student.policy)
    obs, prev, _, label, mask = _packed(episodes)
    own = label.amax(-1) == 0
    with torch.no_grad():
        start = frozen.actor(
            frozen.actor_body.sequences(frozen.normalize_obs(obs), prev, mask, _zeros(frozen, mask))
        )
    drift = {}
    for weight in (0.0, 1.0):
        policy, generator = copy.deepcopy(frozen), torch.Generator().manual_seed(0)
        fresh = [copy.copy(e) for e in episodes]
        losses = fit(policy, frozen, fresh, 20, 1e-3, 2, 1.0, low, high, generator, own_weight=weight)
        assert (losses["own"] > 0) == (weight > 0)
        with torch.no_grad():
            core = policy.actor_body.sequences(policy.normalize_obs(obs), prev, mask, _zeros(policy, mask))
            drift[weight] = float((policy.actor(core) - start)[own].square().mean())
    assert drift[1.0] < 0.5 * drift[0.0]  # the student's own steps keep the actions it had
