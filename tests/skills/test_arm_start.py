"""Skill episodes that start with the arm off its rest pose (`skill.arm_start_noise`), the roll joints
read within a turn of rest, and the reset-arm control that goes the way a limited joint can."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from skills.episodes import arm_start
from skills.registry import make_env
from skills.scripted.control import REST_JOINTS, Robot
from skills.starts import BankEpisodes
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco.robot import ARM_JOINTS, ARM_LIMITS, ARM_ROLL, REST_QPOS, wrap_rolls


def test_without_noise_the_arm_starts_at_rest_and_the_episodes_are_those_drawn_before() -> None:
    rng = np.random.default_rng(3)
    assert arm_start(rng, 0.0) is None
    assert rng.random() == np.random.default_rng(3).random()  # nothing drawn
    a, b = make_env("pick", seed=0), make_env("pick", seed=0, arm_start_noise=0.0)
    for seed in range(3):
        (oa, ia), (_, ib) = a.reset(seed=seed), b.reset(seed=seed)
        assert ia["episode_id"] == ib["episode_id"]
        np.testing.assert_allclose(oa["joint"], np.asarray(REST_QPOS, np.float32), atol=1e-5)


@pytest.mark.parametrize("skill", ["nav_to_obj", "pick", "place", "open_drawer"])
def test_with_noise_the_arm_starts_where_it_was_drawn(skill: str) -> None:
    env = make_env(skill, seed=0, arm_start_noise=1.0)
    offsets = []
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        q = env.backend.arm_qpos
        np.testing.assert_allclose(obs["joint"], q.astype(np.float32), atol=1e-5)
        offsets.append(np.abs(q - REST_JOINTS).max())
        for qi, lim in zip(q, ARM_LIMITS, strict=True):
            assert lim is None or lim[0] <= qi <= lim[1]
    assert max(offsets) > 0.1  # off rest, by draws that differ between episodes
    assert len({round(float(o), 6) for o in offsets}) == 4


def test_arm_start_spreads_as_documented() -> None:
    rng = np.random.default_rng(0)
    q = np.array([arm_start(rng, 1.0) for _ in range(2000)])
    off = q - np.asarray(REST_QPOS)
    assert np.abs(off[:, ARM_ROLL]).max() <= 1.0
    assert 0.2 < float(np.median(np.abs(off).max(axis=1))) < 0.8  # s ~ U(0, 1) times U(-1, 1) per joint
    for i, lim in enumerate(ARM_LIMITS):
        if lim is not None:
            assert lim[0] < q[:, i].min() and q[:, i].max() < lim[1]


def test_bad_noise_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"skill.arm_start_noise: -0.1 must be in \[0, pi\]"):
        make_env("nav_to_obj", arm_start_noise=-0.1)


def test_bank_episodes_get_the_noise_too(tmp_path: Path) -> None:
    env = make_env("place", seed=0)
    env.reset(seed=0)
    spec: EpisodeSpec = replace(env.backend.spec, robot=replace(env.backend.spec.robot, arm=None))
    rng = np.random.default_rng(1)
    plain = BankEpisodes(None, [spec], 1.0)  # type: ignore[arg-type]
    noisy = BankEpisodes(None, [spec], 1.0, arm_noise=0.5)  # type: ignore[arg-type]
    assert plain.sample(env.backend, rng).robot.arm is None
    arm = noisy.sample(env.backend, rng).robot.arm
    assert arm is not None and 0.0 < np.abs(np.asarray(arm) - REST_QPOS).max() <= 0.5


def test_the_limits_are_the_models() -> None:
    env = make_env("pick", seed=0)
    env.reset(seed=0)  # the model is built with the first episode's scene
    m = env.backend.model
    for name, lim in zip(ARM_JOINTS, ARM_LIMITS, strict=True):
        j = m.joint(f"robot0:{name}")
        assert bool(j.limited[0]) == (lim is not None)
        if lim is not None:
            np.testing.assert_allclose(j.range, lim, atol=1e-4)


def test_a_roll_joint_reads_within_a_turn_of_rest() -> None:
    q = np.asarray(REST_QPOS) + np.array([0.0, 0.0, 2 * math.pi + 0.1, 0.0, -4 * math.pi, 0.0, 3.5])
    w = wrap_rolls(q)
    np.testing.assert_allclose(w - REST_QPOS, [0.0, 0.0, 0.1, 0.0, 0.0, 0.0, 3.5 - 2 * math.pi], atol=1e-9)
    near = np.asarray(REST_QPOS) + 0.3
    np.testing.assert_array_equal(wrap_rolls(near), near)  # nothing changes within pi of rest
    env = make_env("pick", seed=0)
    env.reset(seed=0)
    b = env.backend
    b.data.qpos[b._arm_q[2]] += 2 * math.pi  # a whole turn of the upper-arm roll: the same pose
    np.testing.assert_allclose(b.arm_qpos, REST_QPOS, atol=1e-6)


def test_reset_control_goes_the_way_a_limited_joint_can() -> None:
    env = make_env("pick", seed=0)
    env.reset(seed=0)
    r = Robot(env)
    sim = r.b
    elbow, wrist = ARM_JOINTS.index("elbow_flex_joint"), ARM_JOINTS.index("wrist_flex_joint")
    # Elbow and wrist flexed to the far end of their ranges, more than pi from rest.
    sim.data.ctrl[sim._arm_u[elbow]] = 2.2
    sim.data.ctrl[sim._arm_u[wrist]] = 2.1
    a = r.joints_to(REST_JOINTS)
    assert a[elbow] == -1.0 and a[wrist] == -1.0  # back through the range, not on into the limit
    sim.data.ctrl[sim._arm_u[2]] = REST_JOINTS[2] + 2 * math.pi - 0.1  # a roll joint: the short way round
    assert r.joints_to(REST_JOINTS)[2] == 1.0  # +0.1 rad to rest the short way, not -(2 pi - 0.1)
