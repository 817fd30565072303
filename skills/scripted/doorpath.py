"""Grid path planning that sees open articulated parts (the fridge door, pulled-out drawers).

The layout's free-space grid (`tpsrl.sim.mujoco.layout.free_space`) holds walls and furniture but not
articulated parts, so a plan could cross the open fridge door, end on its inner side (where driving
pushes the door further open) or run into a pulled-out drawer. Here each open part, as a segment
inflated by the base's radius, is removed from the grid before the breadth-first search.
"""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from tpsrl.sim.mujoco import layout as L

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
CLEARANCE = 0.4  # base centre kept this far from an open part (m), as the layout grid inflates furniture
OPEN = 0.02  # a part is open above this (rad / m)
Segment = tuple[np.ndarray, np.ndarray]


def open_parts(layout: int, state: dict[str, float]) -> list[Segment]:
    """World (x, y) segments of the open fridge door's panel and of pulled-out drawers' fronts."""
    out: list[Segment] = []
    for f in L.make_layout(layout).furniture:
        k = f.spec
        if f.kind == "fridge" and state.get("fridge", 0.0) > OPEN:
            hinge = np.array(f.to_world(k.depth / 2, k.width / 2))
            a = f.yaw - math.pi / 2 + state["fridge"]  # panel direction from the hinge
            out.append((hinge, hinge + k.width * np.array([math.cos(a), math.sin(a)])))
        if f.kind == "cabinet":
            for i in range(L.NUM_DRAWERS):
                o = state.get(f"drawer_{i}", 0.0)
                if o > OPEN:
                    lx = k.depth / 2 + o
                    out.append(
                        (np.array(f.to_world(lx, -k.width / 2)), np.array(f.to_world(lx, k.width / 2)))
                    )
    return out


def grid_without(
    layout: int, parts: list[Segment], clearance: float = CLEARANCE, inflate: float = L.ROBOT_RADIUS
) -> np.ndarray:
    """The layout's free-space grid (furniture inflated by `inflate`) with cells within `clearance` of
    any segment in `parts` removed."""
    # the default's own call: one cache entry (and one array) per layout for the default inflation
    grid = L.free_space(layout) if inflate == L.ROBOT_RADIUS else L.free_space(layout, inflate)
    if not parts:
        return grid
    grid = grid.copy()
    nx, ny = grid.shape
    X, Y = np.meshgrid((np.arange(nx) + 0.5) * L.GRID_RES, (np.arange(ny) + 0.5) * L.GRID_RES, indexing="ij")
    for a, b in parts:
        ab = b - a
        t = np.clip(((X - a[0]) * ab[0] + (Y - a[1]) * ab[1]) / float(ab @ ab), 0.0, 1.0)
        grid &= np.hypot(X - (a[0] + t * ab[0]), Y - (a[1] + t * ab[1])) > clearance
    return grid


def _start_cell(grid: np.ndarray, xy: np.ndarray) -> tuple[int, int]:
    c = (int(xy[0] / L.GRID_RES), int(xy[1] / L.GRID_RES))
    if 0 <= c[0] < grid.shape[0] and 0 <= c[1] < grid.shape[1] and grid[c]:
        return c
    ii, jj = np.nonzero(grid)
    k = int(np.argmin((ii - c[0]) ** 2 + (jj - c[1]) ** 2))
    return int(ii[k]), int(jj[k])


def _search(grid: np.ndarray, start: np.ndarray) -> tuple[np.ndarray, dict]:
    """Breadth-first search from the start's cell: the reachable cells in BFS order and their parents."""
    s = _start_cell(grid, start)
    prev: dict[tuple[int, int], tuple[int, int] | None] = {s: None}
    order = [s]
    q = deque([s])
    while q:
        i, j = q.popleft()
        for di, dj in _NEIGHBOURS:
            n = (i + di, j + dj)
            if 0 <= n[0] < grid.shape[0] and 0 <= n[1] < grid.shape[1] and grid[n] and n not in prev:
                prev[n] = (i, j)
                order.append(n)
                q.append(n)
    return np.array(order), prev


def plan(
    grid: np.ndarray, start: np.ndarray, target: np.ndarray, band: tuple[float, float]
) -> list[tuple[float, float]]:
    """Waypoints (about 0.4 m apart) over `grid` from `start` to the reachable free cell `band` (min,
    max) metres from `target` with the shortest path; the closest reachable band when none lies that
    close; empty if nothing is reachable."""
    cells, prev = _search(grid, start)  # in breadth-first order: the first match has the shortest path
    r = np.hypot(*((cells + 0.5) * L.GRID_RES - np.asarray(target)[:2]).T)
    ok = (r >= band[0]) & (r <= band[1])
    if not ok.any():
        far = r >= band[0]
        if not far.any():
            return []
        ok = far & (r <= r[far].min() + 0.1)
    c: tuple[int, int] | None = tuple(int(v) for v in cells[int(np.argmax(ok))])  # type: ignore[assignment]
    path: list[tuple[float, float]] = []
    while c is not None:
        path.append(((c[0] + 0.5) * L.GRID_RES, (c[1] + 0.5) * L.GRID_RES))
        c = prev[c]
    path.reverse()
    return path[8::8] + [path[-1]] if len(path) > 1 else path


def closest_free(
    grid: np.ndarray, start: np.ndarray, target: np.ndarray, slack: float = 0.08
) -> np.ndarray | None:
    """World (x, y) of a free cell reachable from `start` within `slack` of the closest any reachable
    cell comes to `target` (planar): of those, the one with the shortest path from `start`."""
    cells, _ = _search(grid, start)
    if len(cells) == 0:
        return None
    xy = (cells + 0.5) * L.GRID_RES
    r = np.hypot(*(xy - np.asarray(target)[:2]).T)
    return xy[int(np.argmax(r <= r.min() + slack))]  # breadth-first order: the first is the nearest


def free_at(grid: np.ndarray, xy: np.ndarray) -> bool:
    """Whether the grid cell under (x, y) is free."""
    i, j = int(xy[0] / L.GRID_RES), int(xy[1] / L.GRID_RES)
    return 0 <= i < grid.shape[0] and 0 <= j < grid.shape[1] and bool(grid[i, j])
