"""Sampling episode specs on the MuJoCo apartment: objects on receptacles, goals, robot start."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from ..episode import EpisodeSpec, ObjectPlacement, RobotStart, Target
from . import layout as L
from .objects import OBJECT_TYPES, object_type

# Kinds a target or clutter object may start on by default: open surfaces, not inside containers.
OPEN_SURFACES = (
    "kitchen_counter",
    "kitchen_cabinet",
    "dining_table",
    "coffee_table",
    "sofa",
    "tv_stand",
    "shelf",
    "side_table",
    "bookshelf",
)


class _Placer:
    """Places non-overlapping objects on receptacle surfaces."""

    def __init__(self, layout: L.Layout, articulations: dict[str, float]) -> None:
        self.recs = L.receptacles(layout)
        self.arts = articulations
        self.taken: list[tuple[float, float, float, float]] = []  # x, y, z, radius

    def surface(self, name: str) -> tuple[tuple[float, float, float], tuple[float, float]]:
        r = self.recs[name]
        return r.center_at(self.arts), r.half

    def place(self, rng: np.random.Generator, rec: str, type_name: str) -> tuple[float, float, float] | None:
        t = object_type(type_name)
        (cx, cy, z), (hx, hy) = self.surface(rec)
        rad = t.radius_xy
        if hx < rad or hy < rad:
            return None
        for _ in range(30):
            x = float(rng.uniform(cx - hx + rad, cx + hx - rad))
            y = float(rng.uniform(cy - hy + rad, cy + hy - rad))
            zz = z + t.half_height + 0.002
            if all(
                abs(zz - oz) > 0.3 or math.hypot(x - ox, y - oy) > rad + orad + 0.02
                for ox, oy, oz, orad in self.taken
            ):
                self.taken.append((x, y, zz, rad))
                return (x, y, zz)
        return None


def sample_episode(
    rng: np.random.Generator,
    layout: int | None = None,
    n_targets: int = 1,
    n_clutter: int | tuple[int, int] = (0, 10),
    target_receptacles: Sequence[str] = OPEN_SURFACES,
    goal_receptacles: Sequence[str] = OPEN_SURFACES,
    object_types: Sequence[str] | None = None,
    articulations: dict[str, float] | None = None,
    robot_near: str | None = None,
    robot_max_dist: float = 2.0,
    episode_id: str = "",
) -> EpisodeSpec:
    """Sample a random episode. `robot_near="target"|"goal"` spawns within `robot_max_dist` of it."""
    idx = int(rng.integers(L.NUM_LAYOUTS)) if layout is None else layout
    lay = L.make_layout(idx)
    arts = dict(articulations or {})
    placer = _Placer(lay, arts)
    types = list(object_types or OBJECT_TYPES)
    for t in types:
        object_type(t)
    clutter = n_clutter if isinstance(n_clutter, int) else int(rng.integers(n_clutter[0], n_clutter[1] + 1))
    present = [r for r in placer.recs if r in target_receptacles]
    goal_present = [r for r in placer.recs if r in goal_receptacles]
    if not present or not goal_present:
        raise ValueError(
            f"layout {idx} has none of the receptacles {list(target_receptacles)} / {list(goal_receptacles)}"
        )
    objects: list[ObjectPlacement] = []
    targets: list[Target] = []
    for i in range(n_targets + clutter):
        for _ in range(50):
            t = str(rng.choice(types))
            rec = str(
                rng.choice(
                    present if i < n_targets else [r for r in placer.recs if r in OPEN_SURFACES] or present
                )
            )
            pos = placer.place(rng, rec, t)
            if pos is not None:
                break
        else:
            if i < n_targets:
                raise RuntimeError(f"could not place target object {i} in layout {idx}")
            continue
        handle = f"obj{i}" if i < n_targets else f"clutter{i - n_targets}"
        objects.append(ObjectPlacement(handle, t, pos, float(rng.uniform(-math.pi, math.pi)), rec))
        if i < n_targets:
            for _ in range(50):
                grec = str(rng.choice([g for g in goal_present if g != rec] or goal_present))
                gpos = placer.place(rng, grec, t)
                if gpos is not None:
                    targets.append(Target(handle, gpos, grec))
                    break
            else:
                raise RuntimeError(f"could not place the goal of target {handle} in layout {idx}")
    anchor = None
    if robot_near == "target" and targets:
        anchor = objects[0].pos
    elif robot_near == "goal" and targets:
        anchor = targets[0].goal
    elif robot_near is not None:
        raise ValueError(f"robot_near: {robot_near!r} not accepted; use 'target', 'goal' or None")
    x, y, yaw = free_pose(rng, idx, anchor, robot_max_dist)
    return EpisodeSpec(
        layout=idx,
        robot=RobotStart(x, y, yaw),
        objects=tuple(objects),
        targets=tuple(targets),
        articulations=tuple(sorted(arts.items())),
        episode_id=episode_id,
        seed=0,
    )


ARM_REACH = 0.45  # the resting arm sticks out this far ahead of the base centre
ARM_CLEARANCE = 0.2


def free_pose(
    rng: np.random.Generator,
    idx: int,
    anchor: tuple[float, float, float] | None = None,
    max_dist: float = 2.0,
) -> tuple[float, float, float]:
    """A collision-free base pose (x, y, yaw): base and the resting arm clear of walls and furniture.

    With `anchor`, the base lies within `max_dist` (planar) of it when any free cell does.
    """
    grid = L.free_space(idx)
    ii, jj = np.nonzero(grid)
    xs, ys = (ii + 0.5) * L.GRID_RES, (jj + 0.5) * L.GRID_RES
    if anchor is not None:
        near = np.hypot(xs - anchor[0], ys - anchor[1]) <= max_dist
        if near.any():
            xs, ys = xs[near], ys[near]
    for _ in range(500):
        k = int(rng.integers(len(xs)))
        yaw = float(rng.uniform(-math.pi, math.pi))
        ax, ay = xs[k] + ARM_REACH * math.cos(yaw), ys[k] + ARM_REACH * math.sin(yaw)
        if L.is_free(idx, ax, ay, ARM_CLEARANCE):
            return float(xs[k]), float(ys[k]), yaw
    raise RuntimeError(f"no collision-free robot pose found in layout {idx} near {anchor}")
