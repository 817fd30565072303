"""The "centre" grasp (habitat-lab's): the object's centre on the gripper site, no kick when let go."""

from __future__ import annotations

import numpy as np
import pytest

from skills.registry import make_env
from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.ik import arm_action_toward
from tpsrl.sim.mujoco.robot import CT_HELD

from .helpers import apple_top, floor_apple_sim, reach_and_grasp


def _holding_box(grasp: str) -> MujocoBackend:
    """Layout 0, the robot at rest holding the cracker box (tall: half height 0.105 m) from the start."""
    sim = MujocoBackend(DepthSettings(mode="none"), grasp=grasp)
    sim.reset(EpisodeSpec(**{**floor_apple_sim().spec.__dict__, "held": "box"}))
    return sim


def _gap(sim: MujocoBackend, handle: str) -> float:
    return float(np.linalg.norm(sim.object_pos(handle) - sim.ee_pos_world))


def test_a_start_holding_puts_the_centre_on_the_gripper_only_under_the_centre_grasp() -> None:
    centre, contact = _holding_box("centre"), _holding_box("contact")
    assert centre.held == contact.held == "box"
    assert _gap(centre, "box") < 0.005 and _gap(contact, "box") > 0.1
    for _ in range(30):  # held through base motion, still by its centre
        centre.step(np.zeros(7), 1.0, np.array([0.5, 0.0]))
    assert centre.held == "box" and _gap(centre, "box") < 0.01


def test_a_picked_object_is_pulled_onto_the_gripper() -> None:
    sim = MujocoBackend(DepthSettings(mode="none"), grasp="centre")
    sim.reset(floor_apple_sim().spec)
    assert reach_and_grasp(sim, lambda: apple_top(sim))
    assert sim.held == "apple" and _gap(sim, "apple") < 0.01


def test_let_go_it_falls_without_a_kick_and_collides_with_the_robot_once_clear() -> None:
    sim = _holding_box("centre")
    g = sim.model.geom("obj:box").id
    let_go = sim.object_pos("box")
    sim.step(np.zeros(7), -1.0, None)
    assert sim.held is None
    assert sim.model.geom_contype[g] == CT_HELD  # still inside the gripper: the robot is ignored
    for _ in range(20):
        sim.step(np.zeros(7), -1.0, None)
    # it fell straight down (pushed out of the gripper at once it would land 0.6 m away)
    assert sim.object_pos("box")[2] < 0.15 and np.linalg.norm((sim.object_pos("box") - let_go)[:2]) < 0.1
    up = sim.ee_pos_world + np.array([0.0, 0.0, 0.3])
    for _ in range(40):
        sim.step(arm_action_toward(sim, up), -1.0, None)
    assert _gap(sim, "box") > 0.35 and sim.model.geom_contype[g] != CT_HELD


def test_an_unknown_grasp_names_the_field() -> None:
    with pytest.raises(ValueError, match=r"grasp: 'palm' not accepted"):
        MujocoBackend(DepthSettings(mode="none"), grasp="palm")
    with pytest.raises(ValueError, match=r"env\.grasp: 'palm' not accepted"):
        EnvConfig(grasp="palm")


def test_the_skill_config_reaches_the_simulator() -> None:
    for grasp, near in (("centre", True), ("contact", False)):
        env = make_env("place", grasp=grasp, base_movement=False, seed=0)
        env.reset(seed=3)
        b = env.backend
        assert b.grasp == grasp and b.held == env.task.target
        assert (_gap(b, b.held) < 0.005) == near
        env.close()


def test_an_object_still_leaving_the_gripper_collides_again_once_clear_even_if_another_is_grasped() -> None:
    sim = _holding_box("centre")
    box = sim.model.geom("obj:box").id
    sim.release()
    sim._grasp("apple")  # another grasp before the box has left (it snaps the apple in)
    assert sim.held == "apple" and sim.model.geom_contype[box] == CT_HELD
    for _ in range(20):
        sim.step(np.zeros(7), 1.0, None)
    assert sim.held == "apple" and _gap(sim, "box") > 0.35 and sim.model.geom_contype[box] != CT_HELD


def test_an_unknown_arm_speed_names_the_field_and_the_skill_config_sets_it() -> None:
    with pytest.raises(ValueError, match=r"arm_speed: 'slow' not accepted"):
        MujocoBackend(DepthSettings(mode="none"), arm_speed="slow")
    with pytest.raises(ValueError, match=r"env\.arm_speed: 'slow' not accepted"):
        EnvConfig(arm_speed="slow")
    with pytest.raises(ValueError, match=r"skill\.arm_speed: 'slow' not accepted"):
        make_env("pick", arm_speed="slow")
    for speed in ("capped", "fast"):
        env = make_env("open_fridge", arm_speed=speed, seed=0)
        assert env.backend.arm_speed == speed
        env.close()
