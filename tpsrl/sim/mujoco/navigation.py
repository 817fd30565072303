"""Grid path planning on a layout's free space, for privileged (scripted) controllers and spawning."""

from __future__ import annotations

import math
from collections import deque

import numpy as np

from . import layout as L

_NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))


def _cell(x: float, y: float) -> tuple[int, int]:
    return int(x / L.GRID_RES), int(y / L.GRID_RES)


def _nearest_free(grid: np.ndarray, c: tuple[int, int]) -> tuple[int, int]:
    if 0 <= c[0] < grid.shape[0] and 0 <= c[1] < grid.shape[1] and grid[c]:
        return c
    ii, jj = np.nonzero(grid)
    k = int(np.argmin((ii - c[0]) ** 2 + (jj - c[1]) ** 2))
    return int(ii[k]), int(jj[k])


def distance_field(layout: int, start_xy: tuple[float, float]) -> np.ndarray:
    """Breadth-first path length (cells, 8-connected) from `start_xy` over free space; -1 unreachable."""
    grid = L.free_space(layout)
    dist = np.full(grid.shape, -1, dtype=np.int32)
    s = _nearest_free(grid, _cell(*start_xy))
    dist[s] = 0
    q = deque([s])
    while q:
        i, j = q.popleft()
        for di, dj in _NEIGHBOURS:
            a, b = i + di, j + dj
            if 0 <= a < grid.shape[0] and 0 <= b < grid.shape[1] and grid[a, b] and dist[a, b] < 0:
                dist[a, b] = dist[i, j] + 1
                q.append((a, b))
    return dist


def plan_path(
    layout: int,
    start_xy: tuple[float, float],
    target_xy: tuple[float, float],
    standoff: tuple[float, float] = (0.55, 0.8),
) -> list[tuple[float, float]]:
    """Waypoints from the robot to a free cell `standoff` metres (min, max) from `target_xy`.

    When no free cell lies that close, the closest reachable cells are used. Returns world (x, y)
    waypoints about 0.4 m apart, ending at the chosen cell; empty if nothing is reachable.
    """
    dist = distance_field(layout, start_xy)
    ii, jj = np.nonzero(dist >= 0)
    xs, ys = (ii + 0.5) * L.GRID_RES, (jj + 0.5) * L.GRID_RES
    r = np.hypot(xs - target_xy[0], ys - target_xy[1])
    ok = (r >= standoff[0]) & (r <= standoff[1])
    if not ok.any():  # deep furniture: settle for the closest reachable band
        far = r >= standoff[0]
        if not far.any():
            return []
        ok = far & (r <= r[far].min() + 0.1)
    k = np.nonzero(ok)[0][np.argmin(dist[ii[ok], jj[ok]])]
    goal = (int(ii[k]), int(jj[k]))
    # Walk back down the distance field from the goal to the start.
    path = [goal]
    c = goal
    while dist[c] > 0:
        c = min(
            ((c[0] + di, c[1] + dj) for di, dj in _NEIGHBOURS),
            key=lambda n: (
                dist[n]
                if 0 <= n[0] < dist.shape[0] and 0 <= n[1] < dist.shape[1] and dist[n] >= 0
                else 1 << 30
            ),
        )
        path.append(c)
    path.reverse()
    pts = [((i + 0.5) * L.GRID_RES, (j + 0.5) * L.GRID_RES) for i, j in path]
    return pts[8::8] + [pts[-1]] if len(pts) > 1 else pts


def base_command_toward(
    pose: tuple[float, float, float], waypoint: tuple[float, float]
) -> tuple[np.ndarray, float]:
    """(base action [2], distance) that turns toward `waypoint` and drives there."""
    x, y, yaw = pose
    dx, dy = waypoint[0] - x, waypoint[1] - y
    d = math.hypot(dx, dy)
    err = (math.atan2(dy, dx) - yaw + math.pi) % (2 * math.pi) - math.pi
    ang = float(np.clip(err * 1.5, -1.0, 1.0))
    lin = 0.0 if abs(err) > 0.4 else float(np.clip(d * 1.2, 0.0, 0.6))
    return np.array([lin, ang]), d


def turn_command(
    pose: tuple[float, float, float], target_xy: tuple[float, float]
) -> tuple[np.ndarray, float]:
    """(base action, heading error) that turns in place to face `target_xy`."""
    x, y, yaw = pose
    err = (math.atan2(target_xy[1] - y, target_xy[0] - x) - yaw + math.pi) % (2 * math.pi) - math.pi
    return np.array([0.0, float(np.clip(err * 1.5, -1.0, 1.0))]), err
