"""Reward components shared by the skills: distance progress, the force rule, the resting position.

Components, not base classes: a skill holds the ones it needs and calls them from its `step`.
"""

from __future__ import annotations

import math

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.geodesic import FIELD_RES, INFLATE, GeodesicDistance, coarse_free
from tpsrl.sim.sensors import REST_EE, base_to_world

from .config import SkillConfig
from .spawn import REACH_MARGIN, articulation_disks, reach_xy


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


def detour_progress(progress: Progress, dist: float, extra: float | None, key: str) -> float:
    """`progress` of `dist` plus the base's detour `extra` (`Detour`; None where it is unknown, off the
    free floor, or where the detour reward is off): a change between a known and an unknown detour is a
    change of measure and pays nothing (the key)."""
    return progress(dist if extra is None else dist + extra, (key, extra is None))


class Detour:
    """How much farther the base must still drive than the straight line to a point before the arm
    reaches it: its shortest way over the free floor (open doors and pulled-out drawers in the way) to
    a base position within the arm's reach of the point with no wall between, and the straight line
    from there, less the straight line from the base. 0 (up to the grid's 8-neighbour steps) where the
    way is straight; `None` where the base stands off the free floor or no way reaches the point."""

    def __init__(self) -> None:
        self.geo = GeodesicDistance()
        self.goal = np.zeros(2)

    def reset(self, layout: int, articulations: dict[str, float], point: np.ndarray) -> None:
        free = coarse_free(layout).copy()
        xs = (np.arange(free.shape[0]) + 0.5) * FIELD_RES
        ys = (np.arange(free.shape[1]) + 0.5) * FIELD_RES
        for d in articulation_disks(layout, articulations):
            free &= np.hypot(xs[:, None] - d.x, ys[None, :] - d.y) > d.r + INFLATE
        self.goal = np.asarray(point, dtype=np.float64)[:2]
        self.geo.reset_free(free, self.goal, _reach_seeds(layout, free, xs, ys, np.asarray(point)))

    def __call__(self, xy: tuple[float, float] | np.ndarray) -> float | None:
        way = self.geo(xy)
        if way is None:
            return None
        return max(way - float(np.hypot(self.goal[0] - xy[0], self.goal[1] - xy[1])), 0.0)


def _reach_seeds(
    layout: int, free: np.ndarray, xs: np.ndarray, ys: np.ndarray, point: np.ndarray
) -> np.ndarray:
    """[X, Y] the free cells from which the arm reaches `point`: within its reach (`spawn.reach_xy`), no
    wall between, and in front of the furniture that encloses the point (the fridge, a shelf: a top
    above it), whose sides and back the arm cannot reach through."""
    xy = point[:2]
    seeds = free & (
        np.hypot(xs[:, None] - xy[0], ys[None, :] - xy[1]) <= reach_xy(float(point[2])) - REACH_MARGIN
    )
    ii, jj = np.nonzero(seeds)
    cx, cy = xs[ii], ys[jj]
    ok = ~_walls_between(cx, cy, xy)
    for f in enclosures(layout, point):
        ok &= f.to_local(cx, cy)[0] > f.spec.depth / 2  # only from its front
    seeds[ii, jj] = ok
    return seeds


def enclosures(layout: int, point: np.ndarray) -> list[L.Furniture]:
    """The furniture that encloses `point` (the fridge, a shelf: its footprint holds it and a top stands
    above it), whose sides and back the arm cannot reach through."""
    out = []
    for f in L.make_layout(layout).furniture:
        lx, ly = f.to_local(*point[:2])
        if f.spec.height > point[2] and abs(lx) <= f.spec.depth / 2 and abs(ly) <= f.spec.width / 2:
            out.append(f)
    return out


def _walls_between(cx: np.ndarray, cy: np.ndarray, b: np.ndarray, samples: int = 16) -> np.ndarray:
    """[K] whether the segment from each (cx, cy) to `b` passes through a wall (`layout.WALLS`), sampled
    every 1/samples of it."""
    t = np.linspace(0.0, 1.0, samples)
    px = cx[:, None] + t * (b[0] - cx[:, None])  # [K, S]
    py = cy[:, None] + t * (b[1] - cy[:, None])
    hit = np.zeros(len(cx), dtype=bool)
    for w in L.WALLS:
        hit |= ((px >= w.x0) & (px <= w.x1) & (py >= w.y0) & (py <= w.y1)).any(axis=1)
    return hit


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
