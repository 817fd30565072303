"""Reward components shared by the skills: distance progress, the force rule, the resting position.

Components, not base classes: a skill holds the ones it needs and calls them from its `step`.
"""

from __future__ import annotations

import math

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.sensors import REST_EE, base_to_world

from .config import SkillConfig


class Progress:
    """Decrease of a distance since the last step (HAB's dense "distance decrease" terms).

    The first value after `reset` or a change of `key` (e.g. EE->object becomes EE->rest once holding)
    gives 0, so switching what is measured never pays a jump.
    """

    def __init__(self) -> None:
        self._prev: float | None = None
        self._key: object = None

    def reset(self) -> None:
        self._prev, self._key = None, None

    def __call__(self, dist: float, key: object = None) -> float:
        gain = 0.0 if self._prev is None or key != self._key else self._prev - dist
        self._prev, self._key = dist, key
        return gain


class ForceRule:
    """HAB's robot-force rule: penalty on new force, episode end on accumulated or instant force.

    New force (HAB's RobotForce): an increase of the robot's contact force over the last counted value
    by more than `min_force` counts in full; a decrease lowers the reference. Steady contact (a cup
    resting on an object) therefore counts once, not every step.
    """

    def __init__(self, cfg: SkillConfig) -> None:
        self.cfg = cfg
        self.reset()

    def reset(self) -> None:
        self.prev = 0.0
        self.accum = 0.0

    def read(self, b: SimBackend) -> float:
        """The arm's contact force (N) the rule reads: its largest contact's, or all of them summed."""
        return b.arm_force_peak if self.cfg.force_measure == "peak" else b.arm_force

    def step(self, force: float) -> tuple[float, bool]:
        """(new force this step in N, whether a limit is exceeded)."""
        new = 0.0
        if force - self.prev > self.cfg.min_force:
            new = force - self.prev
            self.accum += new
            self.prev = force
        elif force < self.prev:
            self.prev = force
        c = self.cfg
        over = (c.max_accum_force > 0 and self.accum > c.max_accum_force) or (
            c.max_instant_force > 0 and force > c.max_instant_force
        )
        return new, over

    def penalty_raw(self, new: float) -> float:
        """New force capped so that force_penalty x it <= force_penalty_cap (the raw "force" term)."""
        if self.cfg.force_penalty <= 0:
            return 0.0
        return min(new, self.cfg.force_penalty_cap / self.cfg.force_penalty)


def force_scales(cfg: SkillConfig) -> dict[str, float]:
    return {"force": -cfg.force_penalty, "force_limit": -cfg.force_end_penalty}


def rest_world(b: SimBackend) -> np.ndarray:
    """The resting EE position [0.5, 0, 1] of the base frame, in the world."""
    return base_to_world(b.base_pose, REST_EE)


def ee_rest_dist(b: SimBackend) -> float:
    return float(np.linalg.norm(b.ee_pos_world - rest_world(b)))


def heading_error(b: SimBackend, xy: np.ndarray) -> float:
    """|angle| between the robot's heading and the direction to world point `xy` (rad)."""
    x, y, yaw = b.base_pose
    err = math.atan2(xy[1] - y, xy[0] - x) - yaw
    return abs((err + math.pi) % (2 * math.pi) - math.pi)
