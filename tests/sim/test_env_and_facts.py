"""Gymnasium env options (base movement, stop, truncation, config errors) and the symbolic facts."""

from __future__ import annotations

import numpy as np
import pytest

from tpsrl.sim.backend import DepthSettings, make_backend
from tpsrl.sim.env import EnvConfig, RearrangeEnv
from tpsrl.sim.symbolic import Region, SceneState, Thresholds, facts

NO_DEPTH = {
    "depth": DepthSettings(mode="none"),
    "observations": ("joint", "ee_pos", "is_holding", "goal_to_agent_gps_compass"),
}


def test_action_space_follows_hab_and_base_switch() -> None:
    full = RearrangeEnv(EnvConfig(**NO_DEPTH))
    assert full.action_space.shape == (11,)
    no_base = RearrangeEnv(EnvConfig(**NO_DEPTH, base_movement=False))
    assert no_base.action_space.shape == (9,) and "base_velocity" not in no_base._slices
    no_base.reset(seed=0)
    x0 = no_base.backend.base_pose
    for _ in range(10):
        no_base.step(np.ones(9, np.float32) * np.r_[np.zeros(8), -1.0])
    assert np.allclose(no_base.backend.base_pose, x0, atol=1e-3)


def test_stop_terminates_and_max_steps_truncates() -> None:
    env = RearrangeEnv(EnvConfig(**NO_DEPTH, max_steps=5))
    env.reset(seed=0)
    a = np.zeros(11, np.float32)
    a[-1] = 1.0
    _, _, term, trunc, info = env.step(a)
    assert term and not trunc and info["episode_stats"]["stop_called"] == 1.0
    env.reset(seed=0)
    a[-1] = -1.0
    for _i in range(5):
        _, _, term, trunc, info = env.step(a)
    assert trunc and not term and info["episode_stats"]["steps"] == 5.0


def test_gps_compass_points_at_the_target() -> None:
    env = RearrangeEnv(EnvConfig(**NO_DEPTH))
    obs, _ = env.reset(seed=2)
    b = env.backend
    target = b.object_pos(b.spec.targets[0].handle)
    x, y, yaw = b.base_pose
    dist = np.hypot(target[0] - x, target[1] - y)
    assert obs["goal_to_agent_gps_compass"][0] == pytest.approx(dist, rel=1e-4)


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        (
            {"actions": ("arm_action", "jump")},
            r"env\.actions: unknown action 'jump'; accepted: \['arm_action'",
        ),
        ({"observations": ("joint", "rgb")}, r"env\.observations: unknown observation 'rgb'; accepted:"),
        ({"max_steps": 0}, r"env\.max_steps: 0 must be >= 1"),
        ({"clutter": (5, 2)}, r"env\.clutter: \(5, 2\) must be"),
        ({"depth": DepthSettings(mode="none")}, r"'head_depth' needs env\.depth\.mode"),
    ],
)
def test_bad_env_config_names_field(kwargs: dict, pattern: str) -> None:
    with pytest.raises(ValueError, match=pattern):
        EnvConfig(**kwargs)


def test_bad_depth_and_backend_names() -> None:
    with pytest.raises(ValueError, match=r"depth\.mode: unknown mode 'lidar'"):
        DepthSettings(mode="lidar")
    with pytest.raises(ValueError, match=r"depth\.height: 0 is not an integer"):
        DepthSettings(height=0)
    with pytest.raises(ValueError, match=r"backend: unknown backend 'bullet'; known: \['mujoco'\]"):
        make_backend("bullet")


def test_bad_action_is_rejected_with_shape() -> None:
    env = RearrangeEnv(EnvConfig(**NO_DEPTH))
    env.reset(seed=0)
    with pytest.raises(ValueError, match="expected 11 finite values"):
        env.step(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        env.step(np.full(11, np.nan))


def _state(**kw) -> SceneState:
    base = dict(
        robot_xy=(0.0, 0.0),
        held=None,
        objects={"cup": (1.0, 0.0, 0.8), "can": (5.0, 0.0, 0.9)},
        goals={"goal_cup": (1.2, 0.0, 0.8)},
        receptacles={
            "table": Region((0.5, -0.5, 0.75), (1.5, 0.5, 1.1)),
            "fridge": Region((4.5, -0.5, 0.5), (5.5, 0.5, 1.5)),
        },
        articulations={"fridge": 0.0, "drawer_0": 0.4},
    )
    base.update(kw)
    return SceneState(**base)


def test_facts_thresholds() -> None:
    f = facts(_state())
    assert ("not_holding",) in f and ("in", "cup", "table") in f and ("in", "can", "fridge") in f
    assert ("closed", "fridge") in f and ("opened", "drawer_0") in f
    assert ("robot_at", "cup") in f and ("robot_at", "can") not in f  # 1.0 m vs 5.0 m (threshold 2.0)
    assert ("object_at", "cup", "goal_cup") in f  # 0.2 m < 0.3 m
    f2 = facts(_state(goals={"goal_cup": (1.4, 0.0, 0.8)}, articulations={"fridge": 1.0, "drawer_0": 0.2}))
    assert ("object_at", "cup", "goal_cup") not in f2  # 0.4 m
    assert ("opened", "fridge") not in f2 and ("closed", "fridge") not in f2  # 1.0 rad: neither
    assert ("opened", "drawer_0") not in f2 and ("closed", "drawer_0") not in f2
    f3 = facts(_state(held="cup"))
    assert ("holding", "cup") in f3 and ("not_holding",) not in f3
    assert not any(x[0] == "in" and x[1] == "cup" for x in f3)
    f4 = facts(_state(), Thresholds(robot_at=6.0))
    assert ("robot_at", "can") in f4


def test_registered_with_gymnasium() -> None:
    import gymnasium as gym

    from tpsrl.sim.env import register

    register()
    env = gym.make("tpsrl/Rearrange-v0", config={**NO_DEPTH, "base_movement": False})
    assert env.action_space.shape == (9,)
    env.close()
