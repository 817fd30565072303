"""Grid path planning that sees the open fridge door.

The layout's free-space grid (`tpsrl.sim.mujoco.layout.free_space`) holds walls and furniture but not
articulated parts, so a plan to the door's outer side could cross the door or end on its inner side
(where driving pushes the door further open). Here the door's panel, inflated by the base's radius,
is removed from the grid before the breadth-first search.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from tpsrl.sim.mujoco import layout as L

from .control import Actions, Robot, base_toward

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
DOOR_CLEARANCE = 0.4  # base centre kept this far from the door panel (m)


def grid_without_segment(layout: int, a: np.ndarray, b: np.ndarray, clearance: float) -> np.ndarray:
    """The layout's free-space grid with cells within `clearance` of segment a-b (x, y) removed."""
    grid = L.free_space(layout).copy()
    nx, ny = grid.shape
    X, Y = np.meshgrid((np.arange(nx) + 0.5) * L.GRID_RES, (np.arange(ny) + 0.5) * L.GRID_RES, indexing="ij")
    ab = b - a
    t = np.clip(((X - a[0]) * ab[0] + (Y - a[1]) * ab[1]) / float(ab @ ab), 0.0, 1.0)
    dist = np.hypot(X - (a[0] + t * ab[0]), Y - (a[1] + t * ab[1]))
    return grid & (dist > clearance)


def _cell(grid: np.ndarray, xy: np.ndarray) -> tuple[int, int]:
    c = (int(xy[0] / L.GRID_RES), int(xy[1] / L.GRID_RES))
    if 0 <= c[0] < grid.shape[0] and 0 <= c[1] < grid.shape[1] and grid[c]:
        return c
    ii, jj = np.nonzero(grid)
    k = int(np.argmin((ii - c[0]) ** 2 + (jj - c[1]) ** 2))
    return int(ii[k]), int(jj[k])


def grid_path(grid: np.ndarray, start: np.ndarray, goal: np.ndarray) -> list[np.ndarray]:
    """World (x, y) waypoints over `grid` from `start` to the reachable free cell nearest `goal`."""
    s = _cell(grid, start)
    prev: dict[tuple[int, int], tuple[int, int] | None] = {s: None}
    q = deque([s])
    while q:
        i, j = q.popleft()
        for di, dj in _NEIGHBOURS:
            n = (i + di, j + dj)
            if 0 <= n[0] < grid.shape[0] and 0 <= n[1] < grid.shape[1] and grid[n] and n not in prev:
                prev[n] = (i, j)
                q.append(n)
    cells = np.array(list(prev))
    centres = (cells + 0.5) * L.GRID_RES
    end = tuple(int(v) for v in cells[int(np.argmin(np.hypot(*(centres - goal[:2]).T)))])
    path: list[np.ndarray] = []
    c: tuple[int, int] | None = end  # type: ignore[assignment]
    while c is not None:
        path.append((np.array(c) + 0.5) * L.GRID_RES)
        c = prev[c]
    path.reverse()
    return path[::6] + [path[-1]] if len(path) > 1 else path


def follow(r: Robot, path: list[np.ndarray], arm, max_steps: int = 250) -> Actions:
    """Drive through `path` (world (x, y) waypoints), `arm()` giving the arm action."""
    steps = 0
    for i, wp in enumerate(path):
        final = i == len(path) - 1
        while steps < max_steps:
            base, d = base_toward(r.b.base_pose, (float(wp[0]), float(wp[1])), final)
            if d < (0.08 if final else 0.25):
                break
            steps += 1
            yield r.flat(arm(), base)


def heading_to(pose: tuple[float, float, float], xy: np.ndarray) -> float:
    """Heading error (rad) from `pose` to the point `xy`."""
    x, y, yaw = pose
    return (math.atan2(float(xy[1]) - y, float(xy[0]) - x) - yaw + math.pi) % (2 * math.pi) - math.pi
