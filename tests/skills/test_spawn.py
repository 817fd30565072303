"""The spawn grid's largest free region: the run-based search against a cell-by-cell flood fill."""

from __future__ import annotations

from collections import deque

import numpy as np

from skills.spawn import _largest_component
from tpsrl.sim.mujoco import layout as L


def _components(grid: np.ndarray) -> list[np.ndarray]:
    """Every 4-connected region of `grid`, by breadth-first flood fill."""
    seen, out = np.zeros_like(grid), []
    for start in zip(*np.nonzero(grid), strict=True):
        if seen[start]:
            continue
        region, queue = np.zeros_like(grid), deque([start])
        region[start] = seen[start] = True
        while queue:
            i, j = queue.popleft()
            for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
                if 0 <= a < grid.shape[0] and 0 <= b < grid.shape[1] and grid[a, b] and not seen[a, b]:
                    region[a, b] = seen[a, b] = True
                    queue.append((a, b))
        out.append(region)
    return out


def test_largest_component_equals_a_flood_fill() -> None:
    """Random grids (many regions, winding ones) and two layouts' spawn grids: the largest region, and
    of regions of equal size the first found in row-major order."""
    rng = np.random.default_rng(0)
    grids = [
        rng.random((int(rng.integers(1, 25)), int(rng.integers(1, 25)))) < rng.uniform(0.3, 0.8)
        for _ in range(200)
    ]
    spiral = np.zeros((9, 9), dtype=bool)
    spiral[0, :] = spiral[:, 8] = spiral[8, :] = spiral[2:, 0] = spiral[2, :7] = spiral[2:7, 6] = True
    grids += [spiral, np.zeros((3, 4), dtype=bool), L.free_space(0), L.free_space(5, 0.25)]
    for grid in grids:
        regions = _components(grid)
        best = max(regions, key=lambda r: int(r.sum())) if regions else np.zeros_like(grid)
        assert np.array_equal(_largest_component(grid), best)
