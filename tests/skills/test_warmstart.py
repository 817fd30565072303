"""Start points made from trained skills (skills.warmstart): without and with base movement, a held grip,
added depth or sensors, a renamed or dropped sensor."""

from __future__ import annotations

import math
from dataclasses import asdict
from pathlib import Path

import numpy as np
import pytest
import torch

from skills.config import EPISODE_SOURCE_FIELDS
from skills.learned import load_skill_policy
from skills.registry import make_env
from skills.ship import CHECKPOINT_DIR, ship
from skills.warmstart import (
    GRIP_HOLD_BIAS,
    WarmStartError,
    hold_grip,
    main,
    renamed_sensor,
    with_base,
    with_depth,
    with_sensor,
    without_base,
    without_sensor,
)
from skills.widen import widened
from tpsrl.engine import checkpoint

MLP_PICK = Path(__file__).parents[2] / "docs/results/runs/pick_control/checkpoints/latest.pt"


def test_without_base_keeps_arm_and_grip_rows_and_the_rest(tmp_path: Path) -> None:
    source = CHECKPOINT_DIR / "pick.pt"
    out = without_base(source, tmp_path / "pick_nobase_init.pt")
    full, cut = checkpoint.read(source), checkpoint.read(out)
    assert full["spaces"]["action"]["shape"] == [10] and cut["spaces"]["action"]["shape"] == [8]
    for key in ("actor.weight", "actor.bias", "log_std"):  # arm (7) and grip (1) come first in HAB order
        assert torch.equal(cut["model"][key], full["model"][key][:8])
    for key in ("critic.weight", "obs_norm.joint.mean", "value_norm.var"):
        assert torch.equal(cut["model"][key], full["model"][key])
    assert cut["meta"]["skill_config"]["base_movement"] is False
    assert checkpoint.trained_env_steps(cut) == checkpoint.trained_env_steps(full)
    assert cut["provenance"][-1]["derived"] == "without_base"
    # It runs in the no-base env, and acts there as the source does with its arm and grip.
    policy = load_skill_policy(out)
    depth = cut["meta"]["skill_config"]["depth"]  # the shipped pick sees head depth (forty-third session)
    env = make_env("pick", base_movement=False, split="heldout", depth=depth)
    obs, _ = env.reset(seed=0)
    policy.reset(env)
    assert policy.act(obs, env).shape == (8,)
    env.close()
    # the LSTM reads its previous action: the cut one with (arm, grip) acts as the source with base 0
    src, cut_policy = load_skill_policy(source).runner.policy, policy.runner.policy
    assert src.recurrent
    batch = {k: torch.from_numpy(v[None]) for k, v in obs.items()}
    prev, state = torch.randn(1, 8), torch.randn(1, *src.state_shape())
    a_full = src.act(batch, torch.cat([prev, torch.zeros(1, 2)], 1), state, deterministic=True)[0]
    a_cut = cut_policy.act(batch, prev, state, deterministic=True)[0]
    assert torch.allclose(a_full[:, :8], a_cut, atol=1e-6)
    with pytest.raises(WarmStartError, match="exists"):
        without_base(source, out)


def test_without_base_refuses_nav_and_no_base_sources(tmp_path: Path) -> None:
    assert main([str(CHECKPOINT_DIR / "nav_to_obj.pt"), str(tmp_path / "a.pt")]) == 2
    made = without_base(CHECKPOINT_DIR / "place.pt", tmp_path / "place.pt")
    with pytest.raises(WarmStartError, match="base movement"):
        without_base(made, tmp_path / "again.pt")
    assert not (tmp_path / "a.pt").exists() and not (tmp_path / "again.pt").exists()


def test_with_base_acts_as_the_no_base_source_and_keeps_the_base_still(tmp_path: Path) -> None:
    source = CHECKPOINT_DIR / "place_nobase.pt"  # an LSTM: its first layer reads the previous action too
    out = with_base(source, tmp_path / "place_plus_base.pt")
    cut, full = checkpoint.read(source), checkpoint.read(out)
    assert cut["spaces"]["action"]["shape"] == [4] and full["spaces"]["action"]["shape"] == [6]
    assert full["meta"]["skill_config"]["base_movement"] is True
    assert full["provenance"][-1]["derived"] == "with_base"
    assert torch.all(full["model"]["actor.weight"][4:] == 0) and torch.all(
        full["model"]["actor.bias"][4:] == 0
    )
    assert torch.allclose(full["model"]["log_std"][4:], cut["model"]["log_std"].mean())
    # the same episode in the no-base env and the with-base env: the same arm and grip, the base still
    fields = {
        k: v for k, v in asdict(load_skill_policy(source).config).items() if k not in EPISODE_SOURCE_FIELDS
    }
    src, plus = load_skill_policy(source), load_skill_policy(out)
    fixed, moving = (
        make_env("place", **fields, split="heldout"),
        make_env("place", **{**fields, "base_movement": True}, split="heldout"),
    )
    obs_f, _ = fixed.reset(seed=5)
    obs_m, _ = moving.reset(seed=5)
    src.reset(fixed)
    plus.reset(moving)
    for _ in range(15):
        a, b = src.act(obs_f, fixed), plus.act(obs_m, moving)
        assert np.allclose(a, b[:4], atol=1e-5) and np.all(b[4:] == 0)
        obs_f, *_ = fixed.step(a)
        obs_m, *_ = moving.step(b)
    fixed.close()
    moving.close()
    # and back: without_base gives the source's rows again
    back = checkpoint.read(without_base(out, tmp_path / "back.pt"))
    for key in ("actor.weight", "actor.bias", "log_std", "actor_body.core.lstm.weight_ih_l0"):
        assert torch.equal(back["model"][key], cut["model"][key])
    with pytest.raises(WarmStartError, match="base movement already"):
        with_base(CHECKPOINT_DIR / "place.pt", tmp_path / "again.pt")
    quiet = checkpoint.read(with_base(source, tmp_path / "quiet.pt", base_log_std=-1.5))
    assert torch.all(quiet["model"]["log_std"][4:] == -1.5)
    assert torch.equal(quiet["model"]["log_std"][:4], cut["model"]["log_std"])
    with pytest.raises(WarmStartError, match="--base-log-std 9.0"):
        with_base(source, tmp_path / "loud.pt", base_log_std=9.0)
    assert not (tmp_path / "again.pt").exists() and not (tmp_path / "loud.pt").exists()


def test_hold_grip_sets_the_grip_output_alone(tmp_path: Path) -> None:
    source = without_base(CHECKPOINT_DIR / "pick.pt", tmp_path / "nobase.pt")
    held = checkpoint.read(hold_grip(source, tmp_path / "held.pt"))
    before = checkpoint.read(source)
    w, b = held["model"]["actor.weight"], held["model"]["actor.bias"]
    assert torch.all(w[7] == 0) and b[7] == GRIP_HOLD_BIAS  # grip: arm (7) first in HAB order
    assert torch.equal(w[:7], before["model"]["actor.weight"][:7])
    assert held["spaces"] == before["spaces"] and held["provenance"][-1]["derived"] == "hold_grip"
    policy = load_skill_policy(tmp_path / "held.pt")
    env = make_env("pick", base_movement=False, split="heldout", depth=policy.config.depth)
    obs, _ = env.reset(seed=1)
    policy.reset(env)
    assert all(policy.act(obs, env)[7] > 0.9 for _ in range(3))  # holds whatever it sees
    env.close()
    assert main(["--hold-grip", str(CHECKPOINT_DIR / "nav_to_obj.pt"), str(tmp_path / "n.pt")]) == 2


MLP_PLACE = Path(__file__).parents[2] / "docs/results/runs/place_settled_s5/place.pt"
STATE_PICK = Path(__file__).parents[2] / "docs/results/runs/pick_hard_s11/pick.pt"  # shipped until 2026-12-04


@pytest.mark.parametrize(
    "skill", ["place", "pick"]
)  # an MLP place (the one shipped until 2026-11-28), an LSTM pick (state-only, shipped until 2026-12-04)
def test_with_depth_acts_as_the_source_until_trained(tmp_path: Path, skill: str) -> None:
    path = MLP_PLACE if skill == "place" else STATE_PICK
    out = with_depth(path, tmp_path / f"{skill}_d16.pt", 16)
    data = checkpoint.read(out)
    assert data["meta"]["skill_config"]["depth"] == 16 and data["config"]["policy"]["image_encoder"] == "flat"
    assert data["spaces"]["observation"]["dict"]["head_depth"]["shape"] == [16, 16, 1]
    # what reads the encoder's features ignores the new ones: an MLP's heads, an LSTM's first layer
    first = "actor_body.core.lstm.weight_ih_l0" if skill == "pick" else "actor.weight"
    assert torch.all(data["model"][first][:, :256] == 0)
    source, deep = load_skill_policy(path), load_skill_policy(out)
    fields = {k: v for k, v in asdict(source.config).items() if k not in (*EPISODE_SOURCE_FIELDS, "depth")}
    plain = make_env(skill, **fields, split="heldout")
    seeing = make_env(skill, **fields, split="heldout", depth=16)
    obs_p, _ = plain.reset(seed=3)
    obs_s, _ = seeing.reset(seed=3)
    source.reset(plain)
    deep.reset(seeing)
    assert (obs_s["head_depth"] > 0).any()  # it does see something
    for _ in range(15):  # same episode in both envs: the same actions on the same states
        a, b = source.act(obs_p, plain), deep.act(obs_s, seeing)
        assert torch.allclose(torch.as_tensor(a), torch.as_tensor(b), atol=1e-5)
        obs_p, *_ = plain.step(a)
        obs_s, *_ = seeing.step(a)
    plain.close()
    seeing.close()
    with pytest.raises(WarmStartError, match="state-only"):
        with_depth(out, tmp_path / "again.pt", 16)
    with pytest.raises(WarmStartError, match="image-encoder 'vit'; accepted: cnn"):
        with_depth(CHECKPOINT_DIR / "place.pt", tmp_path / "vit.pt", 16, "vit")
    assert not (tmp_path / "again.pt").exists() and not (tmp_path / "vit.pt").exists()


@pytest.mark.parametrize(
    ("skill", "sensor", "field"),
    [
        ("nav_to_obj", "base_odometry", "odometry"),
        ("pick", "goal_path_compass", "path_compass"),
        ("pick_lstm", "goal_path_compass", "path_compass"),
        ("pick_lstm", "arm_contact_force", "contact"),
        ("pick_lstm", "base_ranges", "ranges"),
        ("place", "goal_receptacle_shift", "shift_sensor"),
        ("place_nobase", "held_top", "top_sensor"),
    ],
)
def test_with_sensor_acts_as_the_source_until_trained(
    tmp_path: Path, skill: str, sensor: str, field: str
) -> None:
    # an MLP pick run's checkpoint, and the shipped pick (an LSTM since 2026-11-26)
    source = {
        "nav_to_obj": CHECKPOINT_DIR / "nav_to_obj.pt",
        "pick": MLP_PICK,
        "place": CHECKPOINT_DIR / "place.pt",
        "place_nobase": CHECKPOINT_DIR / "place_nobase.pt",
    }.get(skill, CHECKPOINT_DIR / "pick.pt")
    skill = skill.removesuffix("_lstm").removesuffix("_nobase")
    out = with_sensor(source, tmp_path / "plus.pt", sensor)
    data = checkpoint.read(out)
    assert data["meta"]["skill_config"][field] is True
    obs_space = data["spaces"]["observation"]["dict"]
    assert obs_space[sensor]["shape"] == [
        {
            "base_odometry": 3,
            "arm_contact_force": 1,
            "base_ranges": 24,
            "goal_receptacle_shift": 1,
            "held_top": 3,
        }.get(sensor, 2)
    ]
    # The vector inputs are concatenated in sorted key order: the new sensor's columns start at 0, the
    # source's keep their weights at their new offsets.
    keys = sorted(k for k, v in obs_space.items() if len(v["shape"]) == 1)
    start = sum(obs_space[k]["shape"][0] for k in keys[: keys.index(sensor)])
    width = obs_space[sensor]["shape"][0]
    source_model = checkpoint.read(source)["model"]
    bodies = [b for b in ("actor_body", "critic_body") if f"{b}.encoder.mlp.0.weight" in source_model]
    assert bodies[0] == "actor_body"  # (the LSTM has one trunk: no critic_body)
    for body in bodies:
        w = data["model"][f"{body}.encoder.mlp.0.weight"]
        assert torch.all(w[:, start : start + width] == 0)
        kept = torch.cat([w[:, :start], w[:, start + width :]], dim=1)
        assert torch.equal(kept, source_model[f"{body}.encoder.mlp.0.weight"])
    source, plus = load_skill_policy(source), load_skill_policy(out)
    fields = {k: v for k, v in asdict(source.config).items() if k not in EPISODE_SOURCE_FIELDS}
    plain = make_env(skill, **fields, split="heldout")
    # The written config (an explicit observation list, as the shipped nav's, gets the sensor appended).
    sensing = make_env(
        skill,
        **{k: v for k, v in asdict(plus.config).items() if k not in EPISODE_SOURCE_FIELDS},
        split="heldout",
    )
    obs_p, _ = plain.reset(seed=3)
    obs_s, _ = sensing.reset(seed=3)
    source.reset(plain)
    plus.reset(sensing)
    for _ in range(15):  # same episode in both envs: the same actions on the same states
        a, b = source.act(obs_p, plain), plus.act(obs_s, sensing)
        assert torch.allclose(torch.as_tensor(a), torch.as_tensor(b), atol=1e-5)
        obs_p, *_ = plain.step(a)
        obs_s, *_ = sensing.step(a)
    if sensor == "arm_contact_force":  # (nothing need touch the arm in 15 steps: it reads the simulator's)
        assert obs_s[sensor][0] == pytest.approx(math.log1p(sensing.backend.arm_force), rel=1e-5)
    elif sensor == "goal_receptacle_shift":
        # 0 unless the goal's door or drawer moves (its readings: tests/skills/test_place_shut.py)
        assert np.isfinite(obs_s[sensor]).all()
    elif sensor == "held_top":  # held: as long as its half height, else 0 (tests/skills/test_held_top.py)
        held = sensing.backend.held is not None
        assert (np.linalg.norm(obs_s[sensor]) > 0.02) == held
    else:
        assert np.abs(obs_s[sensor]).max() > 0.1  # it reads something
    plain.close()
    sensing.close()
    with pytest.raises(WarmStartError, match="already observes"):
        with_sensor(out, tmp_path / "again.pt", sensor)
    # a sensor a fixed base cannot use is refused for a no-base source (by the skill config, named)
    args = ["--add-sensor", sensor, str(CHECKPOINT_DIR / "pick_nobase.pt"), str(tmp_path / "n.pt")]
    assert main(args) == (2 if field in ("odometry", "path_compass") else 0)
    if field in ("odometry", "path_compass"):
        with pytest.raises(WarmStartError, match=f"skill.{field}: true needs skill.base_movement"):
            with_sensor(CHECKPOINT_DIR / "pick_nobase.pt", tmp_path / "n.pt", sensor)
    else:
        assert checkpoint.read(tmp_path / "n.pt")["meta"]["skill_config"][field] is True
        (tmp_path / "n.pt").unlink()
    with pytest.raises(WarmStartError, match="--add-sensor 'sonar'; accepted: base_odometry"):
        with_sensor(source, tmp_path / "s.pt", "sonar")
    assert not any((tmp_path / n).exists() for n in ("again.pt", "n.pt", "s.pt"))


JOINT_NAV = Path("docs/results/runs/nav_path/checkpoints/latest.pt")
"""The run the shipped nav comes from, reading `joint` (the shipped file reads `joint_sway`)."""


def test_the_shipped_nav_is_its_run_reading_joint_sway(tmp_path: Path) -> None:
    run, shipped = (
        checkpoint.read(JOINT_NAV)["model"],
        checkpoint.read(CHECKPOINT_DIR / "nav_to_obj.pt")["model"],
    )
    assert torch.equal(shipped["obs_norm.joint_sway.var"], run["obs_norm.joint.var"])
    assert torch.equal(shipped["actor_body.encoder.mlp.0.weight"], run["actor_body.encoder.mlp.0.weight"])
    # A renamed shipped file, shipped as it is, keeps the training curve behind it.
    back = renamed_sensor(CHECKPOINT_DIR / "nav_to_obj.pt", tmp_path / "back.pt", "joint_sway", "joint")
    curve = checkpoint.load(ship(back, tmp_path / "shipped"))["curve"]
    assert curve == checkpoint.load(CHECKPOINT_DIR / "nav_to_obj.pt")["curve"] != []


def test_renamed_sensor_acts_as_the_source_while_the_arm_is_at_rest(tmp_path: Path) -> None:
    out = renamed_sensor(JOINT_NAV, tmp_path / "sway.pt", "joint", "joint_sway")
    data = checkpoint.read(out)
    observations = data["meta"]["skill_config"]["observations"]
    assert "joint_sway" in observations and "joint" not in observations
    source_model = checkpoint.read(JOINT_NAV)["model"]
    assert torch.equal(data["model"]["obs_norm.joint_sway.var"], source_model["obs_norm.joint.var"])
    source, renamed = load_skill_policy(JOINT_NAV), load_skill_policy(out)
    fields = {k: v for k, v in asdict(source.config).items() if k not in EPISODE_SOURCE_FIELDS}
    plain = make_env("nav_to_obj", **fields, split="heldout")
    swaying = make_env("nav_to_obj", **{**fields, "observations": observations}, split="heldout")
    obs_p, _ = plain.reset(seed=2)
    obs_s, _ = swaying.reset(seed=2)
    source.reset(plain)
    renamed.reset(swaying)
    for _ in range(20):  # arm targets at rest: the two sensors read the same, the actions are the same
        np.testing.assert_allclose(obs_p["joint"], obs_s["joint_sway"], atol=1e-5)
        a, b = source.act(obs_p, plain), renamed.act(obs_s, swaying)
        assert torch.allclose(torch.as_tensor(a), torch.as_tensor(b), atol=1e-5)
        obs_p, *_ = plain.step(a)
        obs_s, *_ = swaying.step(a)
    # Started with the arm off rest, `joint` reads the pose, `joint_sway` the rest pose (nothing sways yet).
    off = make_env("nav_to_obj", **{**fields, "observations": observations, "arm_start_noise": 1.0})
    obs, _ = off.reset(seed=0)
    np.testing.assert_allclose(obs["joint_sway"], off.backend.arm_rest, atol=1e-5)
    assert np.abs(off.backend.arm_qpos - off.backend.arm_rest).max() > 0.05
    for env in (plain, swaying, off):
        env.close()
    # It still takes an added sensor (its observations are an explicit list now).
    plus = checkpoint.read(with_sensor(out, tmp_path / "odo.pt", "base_odometry"))
    assert "base_odometry" in plus["spaces"]["observation"]["dict"]
    with pytest.raises(WarmStartError, match="'sonar' is unknown"):
        renamed_sensor(JOINT_NAV, tmp_path / "x.pt", "joint", "sonar")
    with pytest.raises(WarmStartError, match="'ee_pos' is not a vector sensor"):
        renamed_sensor(JOINT_NAV, tmp_path / "y.pt", "ee_pos", "joint_sway")
    assert main(["--rename-sensor", "joint:sonar", str(JOINT_NAV), str(tmp_path / "z.pt")]) == 2


def test_without_sensor_acts_as_the_source_fed_the_sensors_training_mean(tmp_path: Path) -> None:
    out = without_sensor(JOINT_NAV, tmp_path / "blind.pt", "joint")
    data = checkpoint.read(out)
    assert "joint" not in data["spaces"]["observation"]["dict"]
    assert not any(k.startswith("obs_norm.joint.") for k in data["model"])
    source, blind = load_skill_policy(JOINT_NAV), load_skill_policy(out)
    fields = {k: v for k, v in asdict(source.config).items() if k not in EPISODE_SOURCE_FIELDS}
    env = make_env("nav_to_obj", **fields, split="heldout")
    obs, _ = env.reset(seed=1)
    mean = checkpoint.read(JOINT_NAV)["model"]["obs_norm.joint.mean"].numpy()
    source.reset(env)
    blind.reset(env)
    a = source.act({**obs, "joint": mean.astype(np.float32)}, env)
    b = blind.act({k: v for k, v in obs.items() if k != "joint"}, env)
    assert torch.allclose(torch.as_tensor(a), torch.as_tensor(b), atol=1e-5)
    env.close()
    with pytest.raises(WarmStartError, match="not a vector sensor"):
        without_sensor(JOINT_NAV, tmp_path / "d.pt", "head_depth")


def test_widened_acts_and_values_as_the_source_and_its_new_units_move(tmp_path: Path) -> None:
    source_path = CHECKPOINT_DIR / "place_nobase.pt"  # a 128-unit LSTM (the shipped place is widened already)
    out = widened(source_path, tmp_path / "place_w256.pt", 256)
    data = checkpoint.read(out)
    assert data["config"]["policy"]["hidden_size"] == 256
    assert data["model"]["actor_body.core.lstm.weight_hh_l1"].shape == (4 * 256, 256)
    assert torch.all(data["model"]["actor.weight"][:, 128:] == 0)
    assert torch.all(data["model"]["actor_body.core.lstm.weight_ih_l1"][:128, 128:] == 0)
    source, wide = load_skill_policy(source_path), load_skill_policy(out)
    fields = {k: v for k, v in asdict(source.config).items() if k not in EPISODE_SOURCE_FIELDS}
    env = make_env("place", **fields, split="heldout")
    obs, _ = env.reset(seed=4)
    source.reset(env)
    wide.reset(env)
    for _ in range(20):  # the same actions on the same states, an LSTM's memory included
        a, b = source.act(obs, env), wide.act(obs, env)
        assert torch.allclose(torch.as_tensor(a), torch.as_tensor(b), atol=1e-5)
        obs, *_ = env.step(a)
    env.close()
    assert wide.runner.state.shape[-1] == 256  # [1, layers, (h, c), units]
    assert wide.runner.state[..., 128:].abs().max() > 1e-3  # the new units are alive: they remember
    with pytest.raises(WarmStartError, match="more units than it has"):
        widened(out, tmp_path / "again.pt", 256)
    with pytest.raises(WarmStartError, match="LSTM"):
        widened(MLP_PLACE, tmp_path / "mlp.pt", 256)
    assert main([str(source_path), str(tmp_path / "cli.pt"), "--widen", "64"]) == 2
    assert not any((tmp_path / f).exists() for f in ("again.pt", "mlp.pt", "cli.pt"))
