"""The optional end-effector arm action (`arm_ee_action`, HAB's ArmEEAction) and `skill.arm_control=ee`."""

from __future__ import annotations

import numpy as np
import pytest

from skills.registry import make_env
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.mujoco.sim import EE_SCALE

from .helpers import floor_apple_sim


@pytest.mark.parametrize("delta", [(0.0, 0.0, 1.0), (0.0, 0.0, -1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)])
def test_ee_action_moves_the_cup_along_the_base_frame_axis(delta: tuple[float, float, float]) -> None:
    sim = floor_apple_sim()  # robot at yaw 0: base axes are world axes
    start = sim.world_to_base(sim.ee_pos_world)
    for _ in range(30):
        sim.step(sim.ee_arm_action(np.array(delta)), None, None)
    moved = sim.world_to_base(sim.ee_pos_world) - start
    axis = int(np.argmax(np.abs(delta)))
    along = np.sign(delta[axis]) * moved[axis]
    # The arm's joint rate limit (arm_action's 0.0125 rad per step) caps the EE speed below EE_SCALE.
    assert 0.1 < along <= 30 * EE_SCALE
    assert np.abs(np.delete(moved, axis)).max() < 0.5 * along


def test_ee_action_is_in_the_base_frame_when_the_robot_is_turned() -> None:
    sim = floor_apple_sim()
    for _ in range(20):  # turn the base left (about 1 rad)
        sim.step(None, None, np.array([0.0, 0.5]))
    sim.step(None, None, None)
    assert 0.6 < sim.base_pose[2] < 1.4
    start = sim.world_to_base(sim.ee_pos_world)
    for _ in range(30):
        sim.step(sim.ee_arm_action(np.array([1.0, 0.0, 0.0])), None, None)
    moved = sim.world_to_base(sim.ee_pos_world) - start
    assert moved[0] > 0.1 and abs(moved[1]) < 0.5 * moved[0]


def test_skill_arm_control_ee_gives_a_3d_arm_action() -> None:
    joint = make_env("pick", seed=0)
    ee = make_env("pick", seed=0, arm_control="ee")
    try:
        assert joint.action_space.shape == (10,) and ee.action_space.shape == (6,)
        ee.reset(seed=3)
        z0 = ee.backend.ee_pos_world[2]
        for _ in range(20):  # arm down, grip off, base still
            ee.step(np.array([0, 0, -1, -1, 0, 0], dtype=np.float32))
        assert ee.backend.ee_pos_world[2] < z0 - 0.05
    finally:
        joint.close()
        ee.close()


def test_bad_arm_settings_are_rejected_with_the_field_named() -> None:
    with pytest.raises(ValueError, match="skill.arm_control"):
        make_env("pick", arm_control="cartesian")
    with pytest.raises(ValueError, match="env.actions"):
        EnvConfig(actions=("arm_action", "arm_ee_action", "grip_action"))
