"""Acting in the workers (`engine.act_in_workers`): the rows they write are the steps `ver` would record
(chronological per env, rewards aligned, behaviour log-probs and values reproducible, truncations
bootstrapped), both variants learn, and misuse and failures are reported."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
import torch

from tests.engine.conftest import tiny_config
from tests.engine.test_learning import assert_learns
from tests.engine.toy_envs import counter, counter7, crash
from tpsrl.engine.acting import ActingCollector
from tpsrl.engine.collector import EngineConfig
from tpsrl.engine.config import ConfigError, validate
from tpsrl.engine.envs import probe_spaces
from tpsrl.engine.minibatch import Packed, minibatches, pack
from tpsrl.engine.policy import ActorCritic, PolicyConfig
from tpsrl.engine.synthetic import PointTargetFactory
from tpsrl.engine.train import train
from tpsrl.engine.workers import WorkerError


def make(
    n: int = 4, t: int = 8, per_worker: int = 2, kind: str = "lstm", **engine: object
) -> ActingCollector:
    obs_space, act = probe_spaces(counter7)
    torch.manual_seed(0)
    policy = ActorCritic(
        obs_space, 1, PolicyConfig(kind=kind, hidden_size=8, mlp_hidden=8, separate_critic=True)
    )
    policy.update_obs_stats({"obs": torch.arange(8.0)[:, None]})  # the MLP then acts in numpy, normalised
    cfg = EngineConfig(
        num_envs=n,
        rollout_steps=t,
        envs_per_worker=per_worker,
        act_in_workers=True,
        **{"step_timeout_s": 30.0, **engine},
    )  # type: ignore[arg-type]
    return ActingCollector(
        cfg, [counter7] * n, policy, obs_space, act, device=torch.device("cpu"), seed=0, gamma=0.9, lam=0.8
    )


@pytest.mark.parametrize("kind", ["lstm", "mlp"])  # LSTM: recurrent states; MLP: `NumpyActing`
def test_workers_write_the_steps_ver_would_record(kind: str) -> None:
    c = make(kind=kind)
    try:
        for _ in range(3):
            r = c.collect()
            assert r is not None
            b, n = r.buffer, r.buffer.size
            assert n == len(r.slots) == 32
            assert torch.bincount(b.env[:n], minlength=4).sum() == 32
            obs, reward = b.obs["obs"][:n, 0], b.reward[:n]
            assert torch.equal(reward, obs + 1)  # CounterEnv: reward t + 1 for the step from obs t
            for e in range(4):
                rows = torch.nonzero(b.env[:n] == e).squeeze(1)
                for a, z in zip(rows[:-1].tolist(), rows[1:].tolist(), strict=True):
                    if b.truncated[a]:
                        assert obs[z] == 0 and b.episode_start[z]
                    else:
                        assert obs[z] == obs[a] + 1 and not b.episode_start[z]
                        assert torch.equal(b.prev_action[z], b.action[a].clamp(-1, 1))
            starts = torch.nonzero(b.episode_start[:n]).squeeze(1)
            assert bool((b.state[starts] == 0).all()) and bool((b.prev_action[starts] == 0).all())
            assert len(r.episodes) == int(b.truncated[:n].sum()) > 0
            # the workers acted with the published weights: stored states reproduce log-probs and values
            mb = pack(r.sequences)
            s = mb.slots
            lp, v = c.policy.evaluate(
                {"obs": b.obs["obs"][s]}, b.prev_action[s], b.action[s], mb.mask, b.state[mb.starts]
            )
            assert torch.allclose(lp, b.log_prob[s], atol=1e-5) and torch.allclose(v, b.value[s], atol=1e-5)
            for slot in torch.nonzero(b.truncated[:n]).squeeze(1).tolist():  # bootstrapped from the final obs
                _, _, _, after = c.policy.act(
                    {"obs": b.obs["obs"][slot : slot + 1]},
                    b.prev_action[slot : slot + 1],
                    b.state[slot : slot + 1],
                    deterministic=True,
                )
                final = c.policy.value(
                    {"obs": torch.tensor([[7.0]])}, b.action[slot : slot + 1].clamp(-1, 1), after
                )
                assert torch.allclose(final, b.truncation_value[slot : slot + 1], atol=1e-5)
            with torch.no_grad():  # a learning step: the next rollout must use the new weights
                c.policy.actor.bias.add_(0.5)
    finally:
        c.close()


@pytest.mark.parametrize("overlap", [False, True])
def test_acting_in_workers_learns_point_target(tmp_path: Path, overlap: bool) -> None:
    # Timing-dependent data order (and, with overlap, policy lag): a margin of steps over the serial tests.
    cfg = tiny_config(tmp_path, serial=False, total_steps=51_200 if overlap else 28_160)
    cfg.engine.act_in_workers, cfg.engine.overlap_learning, cfg.engine.envs_per_worker = True, overlap, 2
    result = train(cfg, PointTargetFactory())
    assert_learns(result, timed=True)
    assert all(m["collect/min_env_steps"] + m["collect/max_env_steps"] > 0 for m in result.history)


@pytest.mark.parametrize(
    ("engine", "field"),
    [
        ({"mode": "sync", "serial": False}, "engine.mode"),
        ({"mode": "nover", "serial": False}, "engine.mode"),
        ({"act_in_workers": False, "overlap_learning": True}, "engine.overlap_learning"),
    ],
)
def test_misuse_names_the_field(tmp_path: Path, engine: dict, field: str) -> None:
    cfg = tiny_config(tmp_path)
    cfg.engine.act_in_workers = True
    for k, v in engine.items():
        setattr(cfg.engine, k, v)
    with pytest.raises(ConfigError, match=field):
        validate(cfg)


def test_serial_runs_ignore_acting_in_workers(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path, serial=True, total_steps=256)
    cfg.engine.act_in_workers = True  # as the skill presets set it; serial has no workers to act in
    validate(cfg)
    assert train(cfg, PointTargetFactory()).counters.env_steps == 256


def test_a_raising_env_stops_the_run_with_its_traceback(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path, serial=False, total_steps=10_000)
    cfg.engine.num_envs, cfg.engine.act_in_workers = 2, True
    with pytest.raises(WorkerError) as err:
        train(cfg, [counter, crash])
    assert err.value.index == 1 and "boom from CrashEnv" in str(err.value)


def test_a_step_counter_left_locked_by_a_dead_worker_is_reported_and_not_waited_on_at_close() -> None:
    """A worker killed inside the shared counter's lock (a stop signal to the whole process group) leaves
    it held: the next rollout reports it after engine.step_timeout_s, and close does not wait on it."""
    c = make(step_timeout_s=0.5)
    try:
        assert c.collect() is not None
        assert c.shared.lock.acquire(timeout=5.0)  # held here as a killed worker would leave it
        with pytest.raises(WorkerError, match="stayed locked"):
            c.collect()
    finally:
        t0 = time.monotonic()
        c.close()
        assert time.monotonic() - t0 < 20.0


@pytest.mark.parametrize("kind", ["lstm", "mlp"])
def test_a_lagged_rollout_is_clipped_around_the_learner_and_weighted_by_the_lag(kind: str) -> None:
    from tpsrl.engine.ppo import PPO, PPOConfig

    c = make(kind=kind, overlap_learning=True)
    try:
        r = c.collect()
    finally:
        c.close()
    assert r is not None and r.lagged
    b, s = r.buffer, r.slots
    lp_now, _ = (
        c.policy.evaluate(
            {"obs": b.obs["obs"][s]},
            b.prev_action[s],
            b.action[s],
            torch.ones(1, len(s), dtype=torch.bool),
            b.state[s],
        )
        if kind == "mlp"
        else (None, None)
    )
    behaviour = b.log_prob.clone()
    b.log_prob[s] += torch.where(torch.arange(len(s)) % 2 == 0, 0.3, -0.3)  # as if acted by other weights
    old, weights, _ = PPO(c.policy, PPOConfig(), torch.device("cpu"), 0)._anchor(r)
    assert torch.allclose(old[s], behaviour[s], atol=1e-5)  # the learner's own log-probs (unchanged weights)
    if lp_now is not None:
        assert torch.allclose(old[s], lp_now.detach(), atol=1e-5)
    expected = r.weights[s] * torch.exp(behaviour[s] - b.log_prob[s]).clamp(max=1.0)
    assert torch.allclose(weights[s], expected, atol=1e-5)
    assert bool((weights[s][::2] < r.weights[s][::2]).all()) and torch.equal(
        weights[s][1::2], r.weights[s][1::2]
    )
    r.lagged = False
    old, weights, states = PPO(c.policy, PPOConfig(), torch.device("cpu"), 0)._anchor(r)
    assert old is b.log_prob and weights is r.weights and states is b.state


def test_a_lagged_recurrent_rollout_is_learned_from_states_of_the_learners_weights() -> None:
    """Minibatches cut sequences anywhere. With lagged weights a cut sequence must start from the state
    the learner's own weights reach there, or the first epoch's ratios are off 1 before any step."""
    from tpsrl.engine.ppo import PPO, PPOConfig

    c = make(t=16, overlap_learning=True)
    try:
        r = c.collect()
    finally:
        c.close()
    assert r is not None and r.lagged
    torch.manual_seed(1)
    with torch.no_grad():  # as if a learning phase had ended while the workers acted
        for p in c.policy.parameters():
            p.add_(0.2 * torch.randn_like(p))
    ppo = PPO(c.policy, PPOConfig(), torch.device("cpu"), 0)
    anchor = ppo._anchor(r)
    cut = minibatches(r.sequences, 4, torch.Generator().manual_seed(0))
    firsts = {int(q[0]) for q in r.sequences}
    assert any(int(s) not in firsts for mb in cut for s in mb.starts)  # some sequences start mid-way
    with torch.no_grad():
        for mb in cut:
            assert torch.allclose(
                ppo._evaluate(r, mb, anchor.states)[0], anchor.log_probs[mb.slots], atol=1e-5
            )
        stale = [ppo._evaluate(r, mb, r.buffer.state)[0] - anchor.log_probs[mb.slots] for mb in cut]
    assert float(torch.cat(stale).abs().max()) > 1e-3  # the states the acting weights stored would not do


def test_a_non_finite_gradient_stops_learning_before_any_weight_is_stepped_with_it() -> None:
    from tpsrl.engine.ppo import PPO, LearningDiverged, PPOConfig

    c = make()
    try:
        r = c.collect()
    finally:
        c.close()
    assert r is not None
    with torch.no_grad():
        c.policy.actor.weight[0, 0] = float("inf")  # as if an update had run away: the loss is NaN
    # the actor's weights: PopArt rescales the critic's head before learning
    actor = [*c.policy.actor_body.parameters(), *c.policy.actor.parameters(), c.policy.log_std]
    before = [p.detach().clone() for p in actor]
    with pytest.raises(LearningDiverged, match="update 3: the gradient of a minibatch's loss is not finite"):
        PPO(c.policy, PPOConfig(), torch.device("cpu"), 0).update(r, 3, 10)
    assert all(torch.allclose(a, b, equal_nan=True) for a, b in zip(actor, before, strict=True))


def test_the_feed_forward_learner_table_gives_the_per_minibatch_numbers() -> None:
    """`PPO._steps` gathers, normalises and concatenates a learning phase's steps once; each minibatch's
    loss from its rows equals the loss from the buffer's slots through `evaluate` (the recurrent path)."""
    from tpsrl.engine.ppo import PPO, PPOConfig

    c = make(kind="mlp")
    try:
        r = c.collect()
    finally:
        c.close()
    assert r is not None
    ppo = PPO(c.policy, PPOConfig(num_minibatches=4), torch.device("cpu"), 0)
    advantages, targets = r.advantages.clone(), c.policy.value_target(r.returns)
    anchor = ppo._anchor(r)
    steps = ppo._steps(r, anchor.log_probs, anchor.weights, advantages, targets)
    assert steps.table.shape == (32, 1 + 1 + 4) and steps.vector_size == 1 and not steps.images
    for mb in ppo._minibatches(r):
        rows = mb.index[0]
        loss, parts = ppo._step_loss(steps, rows)
        packed = Packed(r.slots[rows][None], torch.ones(len(rows), dtype=torch.long))
        expected, expected_parts = ppo._minibatch_loss(r, packed, anchor, advantages, targets)
        assert torch.allclose(loss, expected, rtol=1e-6, atol=1e-7)
        assert all(torch.allclose(parts[k], expected_parts[k], rtol=1e-6, atol=1e-7) for k in parts)
