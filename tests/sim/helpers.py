"""Shared helpers for the simulator tests: poses in front of furniture, scripted reaching."""

from __future__ import annotations

import math

import numpy as np

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.episode import EpisodeSpec, ObjectPlacement, RobotStart
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.ik import arm_action_toward
from tpsrl.sim.mujoco.layout import make_layout


def facing(layout: int, furniture: str, dist: float, lateral: float = 0.0) -> RobotStart:
    """Robot pose `dist` metres in front of `furniture`, looking at it."""
    f = make_layout(layout).get(furniture)
    x, y = f.to_world(f.spec.depth / 2 + dist, lateral)
    return RobotStart(x, y, f.yaw + math.pi)


def reach_and_grasp(sim: MujocoBackend, point_fn, steps: int = 300) -> bool:
    """Move the suction cup onto `point_fn()` with grip on until something is grasped."""
    for _ in range(steps):
        cup_offset = sim.cup_pos_world - sim.ee_pos_world
        sim.step(arm_action_toward(sim, point_fn() - cup_offset), 1.0, None)
        if sim.held is not None:
            return True
    return False


def floor_apple_sim(depth: str = "none", arm_speed: str = "capped") -> MujocoBackend:
    """A sim in layout 0 with an apple on the floor 0.65 m ahead of the robot in open space."""
    sim = MujocoBackend(DepthSettings(mode=depth), arm_speed=arm_speed)
    objects = (
        ObjectPlacement("apple", "apple", (5.65, 3.0, 0.037)),
        ObjectPlacement("box", "cracker_box", (5.3, 2.5, 0.105)),
    )
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(5.0, 3.0, 0.0), objects=objects))
    return sim


def apple_top(sim: MujocoBackend) -> np.ndarray:
    return sim.object_pos("apple") + np.array([0.0, 0.0, 0.037 + 0.015])
