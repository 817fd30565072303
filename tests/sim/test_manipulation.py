"""Suction grasping, holding through motion, release; fridge door and drawers moved by the robot."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.episode import EpisodeSpec, ObjectPlacement, RobotStart
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.ik import arm_action_toward
from tpsrl.sim.mujoco.layout import make_layout
from tpsrl.sim.mujoco.layout import receptacles as L_receptacles
from tpsrl.sim.mujoco.robot import CT_HELD
from tpsrl.sim.mujoco.sim import ARM_SCALE
from tpsrl.sim.sensors import REST_EE
from tpsrl.sim.symbolic import facts

from .helpers import apple_top, facing, floor_apple_sim, reach_and_grasp


def test_rest_pose_puts_ee_near_reference() -> None:
    sim = floor_apple_sim()
    for _ in range(30):
        sim.step(np.zeros(7), -1.0, None)
    ee = sim.world_to_base(sim.ee_pos_world)
    assert np.linalg.norm(ee - REST_EE) < 0.03, ee


def test_grip_needs_contact() -> None:
    sim = floor_apple_sim()
    for _ in range(10):
        sim.step(np.zeros(7), 1.0, None)  # grip on, touching nothing
    assert sim.held is None


def test_suction_holds_through_arm_and_base_motion_then_drops() -> None:
    sim = floor_apple_sim()
    assert reach_and_grasp(sim, lambda: apple_top(sim))
    assert sim.held == "apple"
    assert ("holding", "apple") in facts(sim.scene_state())
    g = sim.model.geom("obj:apple").id
    assert sim.model.geom_contype[g] == CT_HELD  # no collisions with the robot while held
    rel0 = sim.world_to_ee(sim.object_pos("apple"))
    up = sim.ee_pos_world + np.array([0.0, 0.0, 0.4])
    for _ in range(60):
        sim.step(arm_action_toward(sim, up), 1.0, None)
    assert sim.object_pos("apple")[2] > 0.3
    x0, y0, yaw0 = sim.base_pose
    for _ in range(40):
        sim.step(np.zeros(7), 1.0, np.array([0.3, 0.8]))
    x1, y1, yaw1 = sim.base_pose
    assert abs(yaw1 - yaw0) > 1.5 and np.hypot(x1 - x0, y1 - y0) > 0.3  # the base really moved and turned
    slip = np.linalg.norm(sim.world_to_ee(sim.object_pos("apple")) - rel0)
    assert slip < 0.005, f"object slipped {slip * 1000:.1f} mm in the grip"
    for _ in range(30):
        sim.step(np.zeros(7), -1.0, None)
    assert sim.held is None
    assert sim.object_pos("apple")[2] < 0.1  # fell to the floor
    assert ("not_holding",) in facts(sim.scene_state())
    assert sim.model.geom_contype[g] != CT_HELD


def _art_sim(furniture: str, dist: float, lateral: float) -> MujocoBackend:
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=facing(0, furniture, dist, lateral)))
    return sim


def test_drawer_opens_when_pulled_and_closes_when_pushed() -> None:
    sim = _art_sim("kitchen_cabinet", 0.75, 0.0)
    assert ("closed", "drawer_0") in facts(sim.scene_state())
    assert reach_and_grasp(sim, lambda: sim.handle_pos("drawer_0"))
    assert sim.held == "drawer_0"
    for _ in range(60):
        sim.step(np.zeros(7), 1.0, np.array([-0.3, 0.0]))  # back away holding the handle
    assert sim.articulation("drawer_0") > 0.35
    f = facts(sim.scene_state())
    assert ("opened", "drawer_0") in f and ("closed", "drawer_0") not in f
    for _ in range(10):
        sim.step(np.zeros(7), -1.0, None)
    for _ in range(90):
        sim.step(np.zeros(7), -1.0, np.array([0.3, 0.0]))  # drive forward: the arm pushes it shut
    assert sim.articulation("drawer_0") < 0.15
    assert ("closed", "drawer_0") in facts(sim.scene_state())
    assert sim.force_accum > 0.0


def test_fridge_door_opens_when_pulled() -> None:
    sim = _art_sim("fridge", 0.75, -0.3)
    assert ("closed", "fridge") in facts(sim.scene_state())
    assert reach_and_grasp(sim, lambda: sim.handle_pos("fridge"))
    for _ in range(60):
        sim.step(np.zeros(7), 1.0, np.array([-0.3, 0.25]))  # back away and turn, swinging the door
    assert sim.articulation("fridge") > 1.07
    assert ("opened", "fridge") in facts(sim.scene_state())


def test_fridge_door_closes_when_pushed() -> None:
    # Door open at 1.2 rad; the robot faces the door's outer side and drives into it.
    f = make_layout(0).get("fridge")
    th = 1.2
    hinge = np.array([f.spec.depth / 2, f.spec.width / 2])
    normal = np.array([math.cos(th), math.sin(th)])
    mid = hinge + np.array([[math.cos(th), -math.sin(th)], [math.sin(th), math.cos(th)]]) @ np.array(
        [0.05, -0.55]
    )
    p = mid + 0.9 * normal - 0.2 * np.array([-normal[1], normal[0]])
    x, y = f.to_world(*p)
    start = RobotStart(x, y, f.yaw + math.atan2(-normal[1], -normal[0]))
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=start, articulations=(("fridge", th),)))
    assert ("opened", "fridge") in facts(sim.scene_state())
    for _ in range(90):
        sim.step(np.zeros(7), -1.0, np.array([0.3, 0.0]))
    assert abs(sim.articulation("fridge")) < 0.15
    assert ("closed", "fridge") in facts(sim.scene_state())
    assert sim.force_accum > 0.0


def test_start_holding_an_object() -> None:
    sim = MujocoBackend(DepthSettings(mode="none"))
    spec = floor_apple_sim().spec
    sim.reset(EpisodeSpec(**{**spec.__dict__, "held": "apple"}))
    assert sim.held == "apple"
    for _ in range(30):
        sim.step(np.zeros(7), 1.0, np.array([0.5, 0.0]))
    assert sim.held == "apple" and np.linalg.norm(sim.object_pos("apple") - sim.ee_pos_world) < 0.15


def test_object_in_a_drawer_rides_out_with_it() -> None:
    # The bowl falls asleep in the closed drawer (MuJoCo island sleeping); pulling the drawer wakes it.
    r = L_receptacles(make_layout(0))["drawer_0"]
    pos = (r.center[0], r.center[1], r.center[2] + 0.03)
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(
        EpisodeSpec(
            layout=0,
            robot=facing(0, "kitchen_cabinet", 0.75),
            objects=(ObjectPlacement("bowl", "bowl", pos),),
        )
    )
    assert ("in", "bowl", "drawer_0") in facts(sim.scene_state())
    for _ in range(60):
        sim.step(np.zeros(7), -1.0, None)
    assert sim.data.body_awake[sim.model.body("obj:bowl").id] == 0  # asleep: costs nothing to simulate
    start = sim.object_pos("bowl")
    assert reach_and_grasp(sim, lambda: sim.handle_pos("drawer_0"))
    for _ in range(60):
        sim.step(np.zeros(7), 1.0, np.array([-0.3, 0.0]))
    moved = np.linalg.norm(sim.object_pos("bowl") - start)
    assert moved == pytest.approx(sim.articulation("drawer_0"), abs=0.03)
    assert ("in", "bowl", "drawer_0") in facts(sim.scene_state())


@pytest.mark.parametrize(
    ("arm_speed", "documented"),
    [
        ("capped", [0.59, 0.81, 0.97, 0.59, 0.63, 0.62, 0.35]),
        ("fast", [0.98, 0.97, 0.98, 0.94, 0.82, 0.80, 0.35]),
    ],
)
def test_full_arm_actions_move_the_joints_at_the_documented_fraction_of_the_commanded_rate(
    arm_speed: str, documented: list[float]
) -> None:
    # docs/simulator.md ("The arm's joints move slower than commanded"): each arm speed's lead caps
    # (robot.ARM_LEADS) let a joint driven at full action move at these fractions of 0.0125 rad a step (pan,
    # lift, upper-arm roll, elbow, forearm roll, wrist flex, wrist roll). A change to the caps or the servos
    # must update them.
    sim = floor_apple_sim(arm_speed=arm_speed)
    mid = np.array([-0.5, -0.6, -1.13, -1.0, -1.2, -1.3, 0.0])  # away from every joint limit
    for _ in range(80):
        sim.step(np.clip((mid - sim.data.ctrl[sim._arm_u]) / ARM_SCALE, -1.0, 1.0), -1.0, None)
    for _ in range(10):
        sim.step(np.ones(7), -1.0, None)
    q0 = sim.data.qpos[sim._arm_q].copy()
    for _ in range(20):
        sim.step(np.ones(7), -1.0, None)
    rates = (sim.data.qpos[sim._arm_q] - q0) / 20 / ARM_SCALE
    assert np.allclose(rates, documented, atol=0.05), np.round(rates, 2)
