"""Where things start: object placements the robot can reach, collision-free robot poses near them.

Reachability is the measured reach of our Fetch arm (suction cup within 2 cm of a point, privileged
Jacobian reaching from the resting pose, no obstacles), as planar distance from the base centre by
height (docs/skills.md, "Reach"). A spawn that cannot be satisfied is resampled at most
`SkillConfig.spawn_tries` times and then reported with `SpawnError`.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

from tpsrl.sim.mujoco import layout as L

# (height of the point, planar reach from the base centre), measured; linear in between, 0 outside.
REACH_TABLE: tuple[tuple[float, float], ...] = (
    (0.40, 0.0),
    (0.45, 0.65),
    (0.65, 0.85),
    (1.3, 0.85),
    (1.5, 0.65),
)
REACH_MARGIN = 0.05
ARM_AHEAD = 0.45  # the resting arm sticks out this far ahead of the base centre, at about 1 m height
TALL = 0.85  # furniture taller than this blocks the resting arm


class SpawnError(RuntimeError):
    """No spawn satisfying the rules was found; names the layout, the anchor and the rule."""


def reach_xy(z: float) -> float:
    """Planar reach (m) of the suction cup at height `z` (0 where out of reach)."""
    zs, rs = zip(*REACH_TABLE, strict=True)
    if z < zs[0] or z > zs[-1]:
        return 0.0
    return float(np.interp(z, zs, rs))


@dataclass(frozen=True)
class Disk:
    """A keep-out disk in the plane (an open door's or drawer's swept area, sampled as disks)."""

    x: float
    y: float
    r: float


@functools.lru_cache(maxsize=128)
def _free_cells(layout: int, inflate: float = L.ROBOT_RADIUS) -> tuple[np.ndarray, np.ndarray]:
    """World (x, y) of the free cells (for a robot of radius `inflate`) in the largest connected free
    region of a layout."""
    ii, jj = np.nonzero(_main_region(layout, inflate))
    return (ii + 0.5) * L.GRID_RES, (jj + 0.5) * L.GRID_RES


@functools.lru_cache(maxsize=128)
def _main_region(layout: int, inflate: float = L.ROBOT_RADIUS) -> np.ndarray:
    """[X, Y] the largest connected free region of a layout for a robot of radius `inflate` (read-only)."""
    region = _largest_component(L.free_space(layout, inflate))
    region.flags.writeable = False
    return region


def _run_ids(grid: np.ndarray) -> np.ndarray:
    """`[X, Y]` the index of each free cell's run along axis 1 (consecutive free cells of one row); other
    cells hold a number that means nothing."""
    start = grid.copy()
    start[:, 1:] &= ~grid[:, :-1]
    return np.cumsum(start.ravel()).reshape(grid.shape) - 1


def _largest_component(grid: np.ndarray) -> np.ndarray:
    """The largest 4-connected region of `grid`: each region is grown from a seed by taking in every row
    run, then every column run, that it touches, until it stops growing (a few passes for rooms joined by
    doors, where growing a cell at a time took hundreds)."""
    runs = (_run_ids(grid), _run_ids(grid.T).T)
    left, remaining = grid.copy(), int(grid.sum())
    best, best_size = np.zeros_like(grid), 0
    while remaining > best_size:
        ii, jj = np.nonzero(left)
        region = np.zeros_like(grid)
        region[ii[0], jj[0]] = True
        region = _grow(grid, runs, region)
        size = int(region.sum())
        if size > best_size:
            best, best_size = region, size
        left &= ~region
        remaining -= size
    return best


def _grow(grid: np.ndarray, runs: tuple[np.ndarray, np.ndarray], region: np.ndarray) -> np.ndarray:
    """The 4-connected region of `grid` holding the cells of `region`: every row run, then every column
    run, it touches, taken in until it stops growing."""
    size = int(region.sum())
    while True:
        for ids in runs:
            touched = np.zeros(grid.size + 1, dtype=bool)
            touched[ids[region]] = True
            region = grid & touched[ids]
        grown = int(region.sum())
        if grown == size:
            return region
        size = grown


@functools.lru_cache(maxsize=256)
def _navmesh_disk(layout: int, x: float, y: float, radius: float) -> np.ndarray:
    """[X, Y] the free cells (Fetch's radius: the navmesh) within `radius` of (x, y) that connect to the
    free cell nearest it without leaving the circle: where habitat-sim's `get_random_navigable_point_near`
    can land (Detour's findRandomPointAroundCircle walks from the polygon nearest the centre only through
    portals the circle touches, so a room behind a wall is reached only through a doorway within it)."""
    main = _main_region(layout)
    nx, ny = main.shape
    cx = (np.arange(nx) + 0.5) * L.GRID_RES
    cy = (np.arange(ny) + 0.5) * L.GRID_RES
    d = np.hypot(cx[:, None] - x, cy[None, :] - y)
    seed = np.zeros_like(main)
    seed[np.unravel_index(int(np.argmin(np.where(main, d, np.inf))), main.shape)] = True
    inside = main & (d <= radius)
    if not (seed & inside).any():
        return seed & inside
    return _grow(inside, (_run_ids(inside), _run_ids(inside.T).T), seed)


def _arm_clear(layout: int, x: float, y: float, yaw: float) -> bool:
    """The resting arm (ARM_AHEAD ahead, ~1 m high) is clear of walls and tall furniture."""
    ax, ay = x + ARM_AHEAD * math.cos(yaw), y + ARM_AHEAD * math.sin(yaw)
    m = 0.12
    rects = list(L.WALLS) + [f.footprint for f in L.make_layout(layout).furniture if f.spec.height > TALL]
    return not any(r.x0 - m <= ax <= r.x1 + m and r.y0 - m <= ay <= r.y1 + m for r in rects)


def _clear_of(disks: tuple[Disk, ...], x: float, y: float) -> bool:
    return all(math.hypot(x - d.x, y - d.y) > d.r + L.ROBOT_RADIUS for d in disks)


def reachable_from_free(layout: int, point: np.ndarray, disks: tuple[Disk, ...] = ()) -> bool:
    """Some free base cell has `point` within the arm's reach."""
    xs, ys = _free_cells(layout)
    r = reach_xy(float(point[2])) - REACH_MARGIN
    if r <= 0:
        return False
    near = np.hypot(xs - point[0], ys - point[1]) <= r
    return any(_clear_of(disks, float(x), float(y)) for x, y in zip(xs[near], ys[near], strict=True))


def _facing_pose(
    rng: np.random.Generator,
    layout: int,
    x: float,
    y: float,
    anchor: np.ndarray,
    yaw_noise: float,
    disks: tuple[Disk, ...],
    clearance: float,
) -> tuple[float, float, float] | None:
    """The base at (x, y) facing `anchor` +- `yaw_noise` (any heading, uniformly, when it is >= pi), or None
    where it is not free, not clear of `disks`, or its resting arm would stand in a wall or tall furniture.
    Draws the heading only for a free position (the spawns' draws depend on it)."""
    if not (L.is_free(layout, x, y, clearance) and _clear_of(disks, x, y)):
        return None
    if yaw_noise >= math.pi:
        yaw = float(rng.uniform(-math.pi, math.pi))
    else:
        yaw = math.atan2(anchor[1] - y, anchor[0] - x) + float(rng.uniform(-yaw_noise, yaw_noise))
    return (x, y, yaw) if _arm_clear(layout, x, y, yaw) else None


def sample_base(
    rng: np.random.Generator,
    layout: int,
    anchor: np.ndarray,
    *,
    min_dist: float,
    max_dist: float,
    yaw_noise: float,
    base_noise: float,
    disks: tuple[Disk, ...] = (),
    tries: int = 100,
    clearance: float = L.ROBOT_RADIUS,
    near_prob: float = 0.0,
    navmesh: bool = False,
) -> tuple[float, float, float]:
    """A collision-free base pose within [min_dist, max_dist] (planar) of `anchor`, at least `clearance`
    from walls and furniture, facing it +- `yaw_noise` (any heading, uniformly, when it is >= pi); with
    probability `near_prob` from the cells nearer than L.ROBOT_RADIUS to them (where skills leave the
    robot inside HAB episodes), when there are any. `navmesh`: only cells habitat-sim's navmesh sampling
    reaches from the anchor within `max_dist` (`_navmesh_disk`; `skill.spawn_rule=navmesh`)."""
    xs, ys = _free_cells(layout, clearance)
    d = np.hypot(xs - anchor[0], ys - anchor[1])
    ok = (d >= min_dist) & (d <= max_dist)
    if navmesh:
        reach = _navmesh_disk(layout, round(float(anchor[0]), 4), round(float(anchor[1]), 4), float(max_dist))
        ok &= reach[(xs / L.GRID_RES).astype(int), (ys / L.GRID_RES).astype(int)]
    cand = np.nonzero(ok)[0]
    if len(cand) == 0:
        raise SpawnError(
            f"spawn: layout {layout} has no free base cell {min_dist}..{max_dist} m from {np.round(anchor[:2], 2).tolist()}"
        )
    if near_prob > 0.0 and rng.random() < near_prob:
        grid = L.free_space(layout)
        near = cand[~grid[(xs[cand] / L.GRID_RES).astype(int), (ys[cand] / L.GRID_RES).astype(int)]]
        cand = near if len(near) else cand
    for _ in range(tries):
        k = int(rng.choice(cand))
        x = float(xs[k] + rng.normal(0.0, base_noise))
        y = float(ys[k] + rng.normal(0.0, base_noise))
        pose = _facing_pose(rng, layout, x, y, anchor, yaw_noise, disks, clearance)
        if pose is not None:
            return pose
    raise SpawnError(
        f"spawn: no collision-free base pose within {max_dist} m of {np.round(anchor[:2], 2).tolist()} "
        f"in layout {layout} after {tries} tries (skill.spawn_tries)"
    )


HABITAT2_NOISE_RADIUS = 0.1
"""Habitat 2.0's per-skill spawn keeps the noisy base within this (m) of the snapped point."""
HABITAT2_FRONT = {"fridge": 1.0, "drawer_0": 0.8, "drawer_1": 0.8}
"""Habitat 2.0's per-skill spawn for a target inside these: the point this far (m) in front of the
fridge's centre or the open drawer's, along the furniture's front axis."""


def habitat2_start(layout: int, receptacle: str, anchor: np.ndarray, arts: dict[str, float]) -> np.ndarray:
    """Where Habitat 2.0's per-skill pick/place tasks snap the robot to (RearrangePickTaskV1 of the
    habitat-lab that trained the original TP-SRL skills): in front of the fridge (1.0 m from its centre)
    or of the open drawer (0.8 m from the drawer's centre) that holds the target, else the target itself."""
    if receptacle not in HABITAT2_FRONT:
        return np.asarray(anchor[:2], dtype=np.float64)
    kind = "fridge" if receptacle == "fridge" else "cabinet"
    f = next(f for f in L.make_layout(layout).furniture if f.kind == kind)
    out = 0.0 if receptacle == "fridge" else arts.get(receptacle, 0.0)
    return np.array(f.to_world(out + HABITAT2_FRONT[receptacle], 0.0))


def sample_base_habitat2(
    rng: np.random.Generator,
    layout: int,
    start: np.ndarray,
    anchor: np.ndarray,
    *,
    yaw_noise: float,
    base_noise: float,
    disks: tuple[Disk, ...] = (),
    tries: int = 100,
    clearance: float = L.ROBOT_RADIUS,
) -> tuple[float, float, float]:
    """Habitat 2.0's per-skill spawn (`skill.spawn_rule=habitat2`): the free base cell nearest `start`
    (`habitat2_start`; its `safe_snap_point`), moved by N(0, base_noise) per axis within
    HABITAT2_NOISE_RADIUS of that cell, facing `anchor` +- `yaw_noise` (uniform, as `sample_base`). Where
    no such pose near the cell is collision-free with the resting arm clear of walls and tall furniture
    (`tries` // 10 draws), the next nearest cell is tried, `tries` cells at most: HAB retries noisy poses
    around its one snap point and at last keeps a colliding one; redrawing the whole episode instead would
    skew which goals the task draws (tall furniture's most). Not a distance rule: the robot starts as
    close to the target as the floor allows."""
    xs, ys = _free_cells(layout, clearance)
    d = np.hypot(xs - start[0], ys - start[1])
    per_cell = max(1, tries // 10)
    cells = 0
    for k in np.argsort(d, kind="stable"):
        cx, cy = float(xs[k]), float(ys[k])
        if not _clear_of(disks, cx, cy):
            continue
        cells += 1
        if cells > tries:
            break
        for _ in range(per_cell):
            x, y = cx + float(rng.normal(0.0, base_noise)), cy + float(rng.normal(0.0, base_noise))
            if math.hypot(x - cx, y - cy) > HABITAT2_NOISE_RADIUS:
                continue
            pose = _facing_pose(rng, layout, x, y, anchor, yaw_noise, disks, clearance)
            if pose is not None:
                return pose
    raise SpawnError(
        f"spawn: no collision-free base pose near the {tries} free cells nearest "
        f"{np.round(start[:2], 2).tolist()} in layout {layout} (skill.spawn_tries)"
    )


def articulation_disks(layout: int, arts: dict[str, float]) -> tuple[Disk, ...]:
    """Keep-out disks for open articulations: the fridge door's arc and drawers pulled out."""
    out: list[Disk] = []
    for f in L.make_layout(layout).furniture:
        k = f.spec
        if f.kind == "fridge" and arts.get("fridge", 0.0) > 0.05:
            hx, hy = f.to_world(k.depth / 2, k.width / 2)  # hinge: front left corner
            a = f.yaw - math.pi / 2 + arts["fridge"]  # door direction from the hinge
            for s in np.linspace(0.1, k.width, 5):
                out.append(Disk(hx + s * math.cos(a), hy + s * math.sin(a), 0.12))
        if f.kind == "cabinet":
            for i in range(L.NUM_DRAWERS):
                o = arts.get(f"drawer_{i}", 0.0)
                if o > 0.05:
                    for lat in (-0.25, 0.0, 0.25):
                        x, y = f.to_world(k.depth / 2 + o / 2, lat)
                        out.append(Disk(x, y, o / 2 + 0.05))
    return tuple(out)


HABITAT2_ART_REGION: dict[tuple[str, str], tuple[tuple[float, float], tuple[float, float]]] = {
    ("drawer", "open"): ((0.80, -0.35), (0.95, 0.35)),
    ("drawer", "close"): ((0.80, -0.35), (0.85, 0.35)),
    ("fridge", "open"): ((0.833, -0.6), (1.25, 0.6)),
    ("fridge", "close"): ((0.833, -0.6), (1.25, 0.6)),
}
"""Habitat 2.0's open/close tasks (habitat-lab's SetArticulatedObjectTask subclasses): the floor region the
robot starts in, ((out_min, lateral_min), (out_max, lateral_max)) m in the handle's frame (out: away from
the furniture's front; the handle where it is with the drawer or door shut). The close-drawer region is
HAB's but unused: close_drawer refuses the rule (`skills.episodes.ArticulationEpisodes`)."""
HABITAT2_REGION_SCALE = 0.2
"""Those tasks shrink the region about its centre to this share of its size (spawn_region_scale)."""
HABITAT2_ART_YAW_STD = 0.15
"""Their heading noise: N(0, this) rad about facing the handle (base_angle_noise of Habitat 2.0's open-cabinet
task config, applied here to every open/close skill)."""


def closed_handle(layout: int, marker: str) -> tuple[L.Furniture, float, float]:
    """The furniture holding `marker` and its handle site's local (x, y) with the drawer or door shut (as
    tpsrl/sim/mujoco/scene.py builds them: a drawer's 0.05 m in front of the cabinet's centre, the fridge's
    0.1 m in front of the door and 0.07 m in from its free edge)."""
    kind = "fridge" if marker == "fridge" else "cabinet"
    f = next(f for f in L.make_layout(layout).furniture if f.kind == kind)
    k = f.spec
    if kind == "fridge":
        return f, k.depth / 2 + 0.1, -k.width / 2 + 0.07
    return f, k.depth / 2 + 0.05, 0.0


def closed_handle_xy(layout: int, marker: str) -> np.ndarray:
    """World (x, y) of `marker`'s handle site with its drawer or door shut (`closed_handle`)."""
    f, hx, hy = closed_handle(layout, marker)
    return np.array(f.to_world(hx, hy))


def sample_base_habitat2_articulated(
    rng: np.random.Generator,
    layout: int,
    marker: str,
    mode: str,
    *,
    disks: tuple[Disk, ...] = (),
    tries: int = 100,
    clearance: float = L.ROBOT_RADIUS,
) -> tuple[float, float, float]:
    """Habitat 2.0's open/close spawn (`skill.spawn_rule=habitat2` for the open/close skills): a point drawn
    uniformly from `HABITAT2_ART_REGION` shrunk by `HABITAT2_REGION_SCALE` in front of the handle, facing
    it +- N(0, `HABITAT2_ART_YAW_STD`); redrawn up to `tries` times where the base is not free, the open
    door's or drawer's `disks` are in the way, or the resting arm would stand in a wall or tall furniture
    (HAB redraws colliding starts too). The robot stands where the arm alone can work the handle."""
    kind = "fridge" if marker == "fridge" else "drawer"
    (o0, l0), (o1, l1) = HABITAT2_ART_REGION[(kind, mode)]
    f, hx, hy = closed_handle(layout, marker)
    co, cl = (o0 + o1) / 2, (l0 + l1) / 2
    ho, hl = HABITAT2_REGION_SCALE * (o1 - o0) / 2, HABITAT2_REGION_SCALE * (l1 - l0) / 2
    handle = f.to_world(hx, hy)
    for _ in range(tries):
        x, y = f.to_world(
            hx + float(rng.uniform(co - ho, co + ho)), hy + float(rng.uniform(cl - hl, cl + hl))
        )
        yaw = math.atan2(handle[1] - y, handle[0] - x) + float(rng.normal(0.0, HABITAT2_ART_YAW_STD))
        if L.is_free(layout, x, y, clearance) and _clear_of(disks, x, y) and _arm_clear(layout, x, y, yaw):
            return (x, y, yaw)
    raise SpawnError(
        f"spawn: no collision-free base pose in Habitat 2.0's region in front of {marker}'s handle in layout "
        f"{layout} after {tries} tries (skill.spawn_tries)"
    )
