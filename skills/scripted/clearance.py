"""Keeping the arm clear of tall furniture: where the resting arm sweeps objects off surfaces.

The resting EE is 0.5 m ahead of the base centre at about 1 m height and a held object hangs below it,
so over a surface whose objects reach that height (a counter, a shelf, the dining table) the arm knocks
them off when the base turns in place or drives in sideways. The scripted skills therefore

* reverse straight out (`retreat`) before they turn or drive away while the arm is over such a surface,
* navigate to a stand where the arm stays outside it (`Stand.far`), and
* move the arm in over it only on a straight final approach, raised above what stands there.

Pure geometry on the layout (`arm_over_tall`, `stands`); the motion (`control.retreat`) and its callers live in the controllers.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from tpsrl.sim.mujoco import layout as L

from .doorpath import closest_free, free_at

TALL = 0.55  # m: furniture this high has objects (up to 0.21 m tall) reaching a held object's bottom
ARM_AHEAD = 0.62  # m: the resting gripper and a held object reach this far ahead of the base centre
MARGIN = 0.08  # m: kept between that reach and a tall footprint
BASE_FREE = 0.32  # m: the base's radius (0.3) and a little: the planning grid's 0.4 is conservative
CREEP = 0.08  # m: the last straight bit of an approach may go this much beyond the planning grid


@functools.lru_cache(maxsize=64)
def tall_footprints(layout: int) -> tuple[L.Rect, ...]:
    """Footprints of the layout's furniture at least `TALL` high."""
    return tuple(f.footprint for f in L.make_layout(layout).furniture if f.spec.height >= TALL)


def _inside(r: L.Rect, x: float, y: float, margin: float) -> bool:
    return r.x0 - margin <= x <= r.x1 + margin and r.y0 - margin <= y <= r.y1 + margin


def arm_over_tall(layout: int, pose: tuple[float, float, float], ahead: float = ARM_AHEAD) -> bool:
    """Whether the arm's reach (the segment 0.3..`ahead` m ahead of the base) is within `MARGIN` of a
    tall footprint."""
    x, y, yaw = pose
    c, s = math.cos(yaw), math.sin(yaw)
    pts = [(x + d * c, y + d * s) for d in np.linspace(0.3, ahead, 5)]
    return any(_inside(r, px, py, MARGIN) for r in tall_footprints(layout) for px, py in pts)


def sweep_over_tall(
    layout: int,
    pose: tuple[float, float, float],
    yaw: float,
    ahead: float = ARM_AHEAD,
    long_way: bool = False,
) -> bool:
    """Whether turning in place from `pose` to heading `yaw` (the short way, or the long way round)
    sweeps the arm's reach over a tall footprint (the end heading included)."""
    x, y, yaw0 = pose
    turn = (yaw - yaw0 + math.pi) % (2 * math.pi) - math.pi
    if long_way:
        turn -= math.copysign(2 * math.pi, turn)
    n = max(2, int(abs(turn) / 0.1) + 1)
    return any(arm_over_tall(layout, (x, y, yaw0 + turn * t), ahead) for t in np.linspace(0.0, 1.0, n))


def on_tall(layout: int, xy: np.ndarray) -> bool:
    """Whether a point lies on (over) a tall footprint."""
    return any(_inside(r, float(xy[0]), float(xy[1]), 0.0) for r in tall_footprints(layout))


def on_open_surface(layout: int, p: np.ndarray) -> bool:
    """Whether a point (x, y, z) lies on a piece of furniture's top, not inside it (fridge, drawer)."""
    x, y, z = (float(v) for v in p[:3])
    return any(
        _inside(f.footprint, x, y, 0.0) and z >= f.spec.height - 0.05 for f in L.make_layout(layout).furniture
    )


@dataclass(frozen=True)
class Stand:
    """Where to stand for a point on a surface (x, y each)."""

    close: np.ndarray
    """The reachable free cell closest to the point: the shortest reach."""
    far: np.ndarray
    """On the line from the point through `close`, as far out as keeps the resting arm outside a tall
    surface (`close` off tall surfaces): turning there knocks nothing off, and driving on to `close`
    brings the arm in straight."""


def stands(
    layout: int, grid: np.ndarray, start: np.ndarray, point: np.ndarray, tight: np.ndarray | None = None
) -> Stand | None:
    """The `Stand` for `point` over `grid` (free cells) reachable from `start`; None if none is. With
    `tight` (a grid inflated by little more than the base's radius) `close` moves on toward the point
    while free there (at most `CREEP` m): the planning grid's inflation leaves that much to spare."""
    close = closest_free(grid, start, point)
    if close is None:
        return None
    p = np.asarray(point, dtype=np.float64)[:2]
    if tight is not None:
        close = creep_toward(tight, close, p)
    d = float(np.linalg.norm(close - p))
    if not on_tall(layout, p) or d < 1e-6:
        return Stand(close, close)
    # The closest stand is about ROBOT_RADIUS out from the edge: the point is d - ROBOT_RADIUS in.
    out = d - L.ROBOT_RADIUS + ARM_AHEAD + MARGIN
    far = p + (close - p) * (max(out, d) / d)
    for t in np.linspace(1.0, 0.0, 6):  # pulled in toward `close` where the floor behind is taken
        q = close + t * (far - close)
        if free_at(grid, q):
            return Stand(close, q)
    return Stand(close, close)


def creep_toward(tight: np.ndarray, xy: np.ndarray, point: np.ndarray) -> np.ndarray:
    """`xy` moved up to `CREEP` m straight toward `point` over cells free in `tight`."""
    u = point - xy
    n = float(np.linalg.norm(u))
    if n < 1e-6:
        return xy
    best = xy
    for s in np.arange(0.02, min(CREEP, n) + 1e-9, 0.02):
        q = xy + u * (s / n)
        if not free_at(tight, q):
            break
        best = q
    return best


def floor_free(layout: int, x: float, y: float) -> bool:
    """Whether the base fits at (x, y) (radius `BASE_FREE`)."""
    return L.is_free(layout, x, y, BASE_FREE)
