"""Scripted nav_to_obj: grid path to the goal, turn to face it, call stop.

The goal is the episode's navigation goal, else its first target object (as the
`goal_to_agent_gps_compass` sensor reads it). A held object stays held. Termination (HAB skill
execution): the stop output is > 0, which this controller emits only within 1.5 m and facing the goal.
A goal on a tall surface (counter, shelf, table) is approached only as far as keeps the resting arm
outside it (`clearance.Stand.far`), and the base backs out before turning away from one.
"""

from __future__ import annotations

import numpy as np

from .articulated import container_front
from .clearance import on_open_surface, stands
from .control import Actions, Robot, ScriptedSkill, drive_to, face, path_grid, settle
from .pick import CONTAINER_STAND  # pick and place stand there for points inside

REACHED = 1.5  # HAB nav success distance (m); stop is called only inside it
FACING = 0.2618  # HAB nav success heading error (rad)


def nav_goal(r: Robot) -> np.ndarray:
    spec = r.b.spec
    if spec.nav_goal is not None:
        return np.array([*spec.nav_goal, 0.0])
    if spec.targets:
        return r.b.object_pos(spec.targets[0].handle)
    raise ValueError(f"episode {spec.episode_id!r}: nav_to_obj needs spec.nav_goal or a target object")


def goal_height(r: Robot, goal: np.ndarray) -> float | None:
    """Height of the nav goal: the target object's, or that of the episode's goal position under a 2-D
    nav goal; None for other points (a receptacle's front)."""
    spec = r.b.spec
    if spec.nav_goal is None:
        return float(goal[2])
    for t in spec.targets:
        if np.allclose(np.asarray(t.goal[:2]), goal[:2], atol=1e-6):
            return float(t.goal[2])
    return None


def goal_receptacle(r: Robot, goal: np.ndarray) -> str | None:
    """The receptacle the nav goal lies in or on: the target object's, or that of the episode's goal
    position under a 2-D nav goal; None for other points (a receptacle's front)."""
    spec = r.b.spec
    if spec.nav_goal is None:
        return next((o.receptacle for o in spec.objects if o.handle == spec.targets[0].handle), None)
    for t in spec.targets:
        if np.allclose(np.asarray(t.goal[:2]), goal[:2], atol=1e-6):
            return t.goal_receptacle
    return None


def nav_stand(r: Robot, goal: np.ndarray) -> np.ndarray | None:
    """Where to stop: for a point inside the fridge or a drawer, in front of its opening where pick and
    place stand (elsewhere the arm or a held object, turned toward the point, sweeps the fridge's side
    and the open door); for a goal on an open surface (an object, a goal position on furniture), the far
    `Stand` (the resting arm outside a tall surface, in line with the closest stand that pick and place
    then drive on to); None for other goals (a receptacle's front)."""
    rec = goal_receptacle(r, goal)
    front = None if rec is None else container_front(r, rec, goal, CONTAINER_STAND)
    if front is not None:
        return front if float(np.linalg.norm(front - goal[:2])) < REACHED - 0.15 else None
    layout = r.b.spec.layout
    z = goal_height(r, goal)
    if z is None or not on_open_surface(layout, np.array([*goal[:2], z])):
        return None
    st = stands(layout, path_grid(r), np.array(r.b.base_pose[:2]), goal)
    if st is None or float(np.linalg.norm(st.far - goal[:2])) > REACHED - 0.15:
        return None
    return st.far


class NavToObj(ScriptedSkill):
    """Scripted navigation controller (privileged path planning)."""

    skill = "nav_to_obj"

    def plan(self, r: Robot) -> Actions:
        r.grip = 1.0 if r.b.held is not None else -1.0
        goal = nav_goal(r)
        stand = nav_stand(r, goal)
        band = (0.0, 0.8) if r.b.spec.nav_goal is not None else (0.5, 1.1)
        for _ in range(3):  # again if a push off the path, or backing out before a turn, left it short
            if stand is not None and r.planar_dist(stand) > 0.12:
                yield from drive_to(r, stand, (0.0, 0.1), max_steps=400, clear_first=True)
            elif stand is None and r.planar_dist(goal) > REACHED - 0.2:
                yield from drive_to(r, goal, band, max_steps=400, clear_first=True)
            yield from face(r, goal, tol=0.08, clear_first=True)
            if r.planar_dist(goal) < REACHED and abs(r.heading_err(goal)) < FACING:
                break
        if r.planar_dist(goal) < REACHED and abs(r.heading_err(goal)) < FACING:
            yield r.flat(stop=True)
        else:
            yield from settle(r, 1)  # give up without stopping: the task scores a failure
