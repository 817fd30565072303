"""Scripted place: drive within reach of the goal (base on), lower the held object onto it, release, rest.

Termination (HAB skill execution): released and the EE back within 0.15 m of rest.
"""

from __future__ import annotations

import numpy as np

from .control import REST_TOL, Actions, Robot, ScriptedSkill, settle, to_rest
from .pick import approach, target_handle

HOVER = 0.1  # the object first goes this far above its goal (m)
DROP = 0.015  # released this far above the goal position (m)


def carry_to(r: Robot, handle: str, point: np.ndarray, tol: float, steps: int) -> Actions:
    """Move the held object's centre to `point` (world) by moving the EE by the same offset."""
    b = r.b
    for _ in range(steps):
        if b.held != handle:
            return
        err = point - b.object_pos(handle)
        if float(np.linalg.norm(err)) < tol:
            return
        yield r.flat(r.arm_to(b.ee_pos_world + err))


class Place(ScriptedSkill):
    """Scripted place controller (privileged)."""

    skill = "place"

    def plan(self, r: Robot) -> Actions:
        h = target_handle(r)
        goal = np.array(r.b.spec.targets[0].goal, dtype=np.float64)
        r.grip = 1.0
        yield from approach(r, goal)
        yield from carry_to(r, h, goal + np.array([0.0, 0.0, HOVER]), 0.03, 120)
        yield from carry_to(r, h, goal + np.array([0.0, 0.0, DROP]), 0.012, 80)
        r.grip = -1.0
        yield from settle(r, 3)
        yield from to_rest(r)
        self._released = True

    def reset(self, env) -> None:
        super().reset(env)
        self._released = False

    def terminated(self, r: Robot) -> bool:
        return r.b.held is None and self._released and r.rest_dist() < REST_TOL
