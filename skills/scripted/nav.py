"""Scripted nav_to_obj: grid path to the goal, turn to face it, call stop.

The goal is the episode's navigation goal, else its first target object (as the
`goal_to_agent_gps_compass` sensor reads it). A held object stays held. Termination (HAB skill
execution): the stop output is > 0, which this controller emits only within 1.5 m and facing the goal.
"""

from __future__ import annotations

import numpy as np

from .control import Actions, Robot, ScriptedSkill, drive_to, face, settle

REACHED = 1.5  # HAB nav success distance (m); stop is called only inside it
FACING = 0.2618  # HAB nav success heading error (rad)


def nav_goal(r: Robot) -> np.ndarray:
    spec = r.b.spec
    if spec.nav_goal is not None:
        return np.array([*spec.nav_goal, 0.0])
    if spec.targets:
        return r.b.object_pos(spec.targets[0].handle)
    raise ValueError(f"episode {spec.episode_id!r}: nav_to_obj needs spec.nav_goal or a target object")


class NavToObj(ScriptedSkill):
    """Scripted navigation controller (privileged path planning)."""

    skill = "nav_to_obj"

    def plan(self, r: Robot) -> Actions:
        r.grip = 1.0 if r.b.held is not None else -1.0
        goal = nav_goal(r)
        band = (0.0, 0.8) if r.b.spec.nav_goal is not None else (0.5, 1.1)
        for _ in range(3):  # replan if a push off the path left the robot short
            if r.planar_dist(goal) < REACHED - 0.2:
                break
            yield from drive_to(r, goal, band, max_steps=400)
        yield from face(r, goal, tol=0.08)
        if r.planar_dist(goal) < REACHED and abs(r.heading_err(goal)) < FACING:
            yield r.flat(stop=True)
        else:
            yield from settle(r, 1)  # give up without stopping: the task scores a failure
