"""Apartment layouts: furnished deterministically, no overlaps, every receptacle reachable."""

from __future__ import annotations

from collections import deque

import numpy as np
import pytest

from tpsrl.sim.mujoco import layout as L


def _reachable(grid: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    seen = np.zeros_like(grid)
    q = deque([start])
    seen[start] = True
    while q:
        i, j = q.popleft()
        for di, dj in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            a, b = i + di, j + dj
            if 0 <= a < grid.shape[0] and 0 <= b < grid.shape[1] and grid[a, b] and not seen[a, b]:
                seen[a, b] = True
                q.append((a, b))
    return seen


def test_at_least_20_distinct_layouts() -> None:
    assert L.NUM_LAYOUTS >= 20
    signatures = {
        tuple((f.name, round(f.x, 2), round(f.y, 2), round(f.yaw, 2)) for f in L.make_layout(i).furniture)
        for i in range(L.NUM_LAYOUTS)
    }
    assert len(signatures) == L.NUM_LAYOUTS


@pytest.mark.parametrize("index", range(L.NUM_LAYOUTS))
def test_layout_is_valid(index: int) -> None:
    lay = L.make_layout(index)
    names = [f.name for f in lay.furniture]
    for required in (
        "kitchen_counter",
        "fridge",
        "kitchen_cabinet",
        "dining_table",
        "sofa",
        "coffee_table",
        "tv_stand",
    ):
        assert required in names
    for a in range(len(lay.furniture)):
        fa = lay.furniture[a]
        room = L.ROOMS[fa.room]
        fp = fa.footprint
        assert (
            room.x0 - 1e-6 <= fp.x0
            and fp.x1 <= room.x1 + 1e-6
            and room.y0 - 1e-6 <= fp.y0
            and fp.y1 <= room.y1 + 1e-6
        )
        for b in range(a + 1, len(lay.furniture)):
            assert not fp.overlaps(lay.furniture[b].footprint), (fa.name, lay.furniture[b].name)
    # One connected free space that reaches the front of every receptacle.
    grid = L.free_space(index)
    ii, jj = np.nonzero(grid)
    reach = _reachable(grid, (int(ii[0]), int(jj[0])))
    biggest = reach.sum()
    assert biggest > 0.9 * grid.sum(), "free space is split into separate regions"
    for f in lay.furniture:
        a = f.approach if f.spec.placement == "wall" else None
        if a is None:
            continue
        i0, i1 = int(a.x0 / L.GRID_RES), int(a.x1 / L.GRID_RES)
        j0, j1 = int(a.y0 / L.GRID_RES), int(a.y1 / L.GRID_RES)
        assert reach[i0 : i1 + 1, j0 : j1 + 1].any(), f"front of {f.name} unreachable in layout {index}"


def test_layout_is_deterministic_and_bad_index_errors() -> None:
    assert L.make_layout(3) == L.make_layout.__wrapped__(3)
    with pytest.raises(ValueError, match=r"layout: unknown layout 999; accepted: integers 0\.\.31"):
        L.make_layout(999)
    with pytest.raises(ValueError, match="layout"):
        L.make_layout("kitchen")  # type: ignore[arg-type]


def test_receptacles_cover_the_kinds_hab_uses() -> None:
    recs = L.receptacles(L.make_layout(0))
    for name in (
        "kitchen_counter",
        "fridge",
        "drawer_0",
        "drawer_1",
        "dining_table",
        "coffee_table",
        "sofa",
        "tv_stand",
    ):
        assert name in recs
    assert recs["fridge"].joint == "fridge" and recs["drawer_1"].joint == "drawer_1"


@pytest.mark.parametrize("inflate", [L.ROBOT_RADIUS, 0.25, 0.32])
def test_free_space_equals_the_whole_grid_computation(inflate: float) -> None:
    """`free_space` computes each obstacle's keep-out only near the obstacle: the same grid as the
    distance of every cell to every obstacle."""
    nx, ny = int(L.APARTMENT_SIZE[0] / L.GRID_RES), int(L.APARTMENT_SIZE[1] / L.GRID_RES)
    X, Y = np.meshgrid((np.arange(nx) + 0.5) * L.GRID_RES, (np.arange(ny) + 0.5) * L.GRID_RES, indexing="ij")
    for index in (0, 7, L.NUM_LAYOUTS - 1):
        expected = np.ones((nx, ny), dtype=bool)
        for r in list(L.WALLS) + [f.footprint for f in L.make_layout(index).furniture]:
            dx = np.maximum(np.maximum(r.x0 - X, X - r.x1), 0.0)
            dy = np.maximum(np.maximum(r.y0 - Y, Y - r.y1), 0.0)
            expected &= np.hypot(dx, dy) > inflate
        assert np.array_equal(L.free_space(index, inflate), expected)


def test_to_local_undoes_to_world() -> None:
    for f in L.make_layout(0).furniture:
        assert np.allclose(f.to_local(*f.to_world(0.3, -0.2)), (0.3, -0.2))
        assert np.allclose(f.to_local(f.x, f.y), (0.0, 0.0))
