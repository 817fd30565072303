"""Apartment shell and seeded furniture layouts (pure data, no MuJoCo).

One apartment, 10 m x 8 m: a kitchen (west), a living room (south-east) and a dining room
(north-east), joined by three doorways. A layout index seeds where each piece of furniture stands,
which wall it backs onto and which optional pieces exist, in the spirit of ReplicaCAD's one apartment
in many layouts. Furniture is axis-aligned (yaw a multiple of 90 deg); its local +x axis is its front.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import numpy as np

NUM_LAYOUTS = 32
APARTMENT_SIZE = (10.0, 8.0)
WALL_THICKNESS = 0.1
WALL_HEIGHT = 2.5
ROBOT_RADIUS = 0.40  # free-space inflation used for spawning the robot
APPROACH_DEPTH = 0.9  # free strip kept in front of wall furniture so the robot can reach it


@dataclass(frozen=True)
class Rect:
    """Axis-aligned rectangle [x0, x1] x [y0, y1] in metres."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Rect, margin: float = 0.0) -> bool:
        return not (
            self.x1 + margin <= other.x0
            or other.x1 + margin <= self.x0
            or self.y1 + margin <= other.y0
            or other.y1 + margin <= self.y0
        )

    @property
    def center(self) -> tuple[float, float]:
        return ((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


ROOMS: dict[str, Rect] = {
    "kitchen": Rect(0.05, 0.05, 3.95, 7.95),
    "living": Rect(4.05, 0.05, 9.95, 4.45),
    "dining": Rect(4.05, 4.55, 9.95, 7.95),
}
# Doorways: (wall rect gap); keep-out squares around them are kept free of furniture.
DOORWAYS: tuple[Rect, ...] = (
    Rect(3.95, 1.6, 4.05, 2.8),  # kitchen <-> living
    Rect(3.95, 5.2, 4.05, 6.4),  # kitchen <-> dining
    Rect(6.4, 4.45, 7.6, 4.55),  # living <-> dining
)


def _wall_rects() -> tuple[Rect, ...]:
    w, h, t = APARTMENT_SIZE[0], APARTMENT_SIZE[1], WALL_THICKNESS / 2
    walls = [
        Rect(-t, -t, w + t, t),
        Rect(-t, h - t, w + t, h + t),
        Rect(-t, -t, t, h + t),
        Rect(w - t, -t, w + t, h + t),
    ]
    # x = 4 wall with two doorways; y = 4.5 wall (x >= 4) with one doorway.
    walls += [Rect(4 - t, 0, 4 + t, 1.6), Rect(4 - t, 2.8, 4 + t, 5.2), Rect(4 - t, 6.4, 4 + t, h)]
    walls += [Rect(4, 4.5 - t, 6.4, 4.5 + t), Rect(7.6, 4.5 - t, w, 4.5 + t)]
    return tuple(walls)


WALLS = _wall_rects()


@dataclass(frozen=True)
class FurnitureKind:
    """A furniture model: footprint (depth along its front axis, width) and height."""

    depth: float
    width: float
    height: float
    placement: str  # "wall" | "free"


FURNITURE_KINDS: dict[str, FurnitureKind] = {
    "counter": FurnitureKind(0.6, 2.0, 0.9, "wall"),
    "fridge": FurnitureKind(0.7, 0.8, 1.8, "wall"),
    "cabinet": FurnitureKind(0.55, 0.8, 0.8, "wall"),
    "dining_table": FurnitureKind(0.9, 1.6, 0.75, "free"),
    "coffee_table": FurnitureKind(0.5, 1.0, 0.45, "free"),
    "sofa": FurnitureKind(0.9, 2.0, 0.45, "wall"),
    "tv_stand": FurnitureKind(0.4, 1.4, 0.5, "wall"),
    "shelf": FurnitureKind(0.35, 0.9, 1.0, "wall"),
    "side_table": FurnitureKind(0.45, 0.45, 0.6, "free"),
}


@dataclass(frozen=True)
class Furniture:
    """One placed piece of furniture. `(x, y)` is the footprint centre; yaw turns local +x (front)."""

    name: str
    kind: str
    room: str
    x: float
    y: float
    yaw: float

    @property
    def spec(self) -> FurnitureKind:
        return FURNITURE_KINDS[self.kind]

    @property
    def footprint(self) -> Rect:
        k = self.spec
        c, s = abs(math.cos(self.yaw)), abs(math.sin(self.yaw))
        hx = (k.depth * c + k.width * s) / 2
        hy = (k.depth * s + k.width * c) / 2
        return Rect(self.x - hx, self.y - hy, self.x + hx, self.y + hy)

    def to_world(self, lx: float, ly: float) -> tuple[float, float]:
        """Local (front = +x) coordinates to world coordinates."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        return (self.x + c * lx - s * ly, self.y + s * lx + c * ly)

    def to_local(self, x: float, y: float) -> tuple[float, float]:
        """World coordinates to local ones (front = +x): `to_world`'s inverse."""
        c, s = math.cos(self.yaw), math.sin(self.yaw)
        dx, dy = x - self.x, y - self.y
        return (c * dx + s * dy, -s * dx + c * dy)

    @property
    def approach(self) -> Rect:
        """The strip in front of the furniture kept free for the robot."""
        k = self.spec
        fx, fy = self.to_world(k.depth / 2 + APPROACH_DEPTH / 2, 0.0)
        c, s = abs(math.cos(self.yaw)), abs(math.sin(self.yaw))
        hx = (APPROACH_DEPTH * c + k.width * s) / 2
        hy = (APPROACH_DEPTH * s + k.width * c) / 2
        return Rect(fx - hx, fy - hy, fx + hx, fy + hy)


@dataclass(frozen=True)
class Layout:
    """A furnished apartment: its index and furniture (walls and doorways are shared by all)."""

    index: int
    furniture: tuple[Furniture, ...]

    def get(self, name: str) -> Furniture:
        for f in self.furniture:
            if f.name == name:
                return f
        raise KeyError(
            f"layout {self.index} has no furniture {name!r}; it has {[f.name for f in self.furniture]}"
        )


# (name, kind, room, required). Kitchen pieces always exist; some living/dining pieces are optional.
_PIECES: tuple[tuple[str, str, str, bool], ...] = (
    ("kitchen_counter", "counter", "kitchen", True),
    ("fridge", "fridge", "kitchen", True),
    ("kitchen_cabinet", "cabinet", "kitchen", True),
    ("dining_table", "dining_table", "dining", True),
    ("sofa", "sofa", "living", True),
    ("coffee_table", "coffee_table", "living", True),
    ("tv_stand", "tv_stand", "living", True),
    ("shelf", "shelf", "dining", False),
    ("side_table", "side_table", "living", False),
    ("bookshelf", "shelf", "living", False),
)
_KEEP_OUT = tuple(Rect(d.x0 - 0.9, d.y0 - 0.9, d.x1 + 0.9, d.y1 + 0.9) for d in DOORWAYS)


def _candidate(rng: np.random.Generator, name: str, kind: str, room: str) -> Furniture:
    k, r = FURNITURE_KINDS[kind], ROOMS[room]
    if k.placement == "free":
        yaw = float(rng.choice([0.0, math.pi / 2]))
        hx, hy = (k.depth / 2, k.width / 2) if yaw == 0.0 else (k.width / 2, k.depth / 2)
        mx, my = 0.85 + hx, 0.85 + hy  # leave a robot-wide passage to every wall
        return Furniture(
            name,
            kind,
            room,
            float(rng.uniform(r.x0 + mx, r.x1 - mx)),
            float(rng.uniform(r.y0 + my, r.y1 - my)),
            yaw,
        )
    side = int(rng.integers(4))  # 0 west (faces +x), 1 east, 2 south (faces +y), 3 north
    d, w = k.depth / 2, k.width / 2
    if side == 0:
        return Furniture(name, kind, room, r.x0 + d, float(rng.uniform(r.y0 + w, r.y1 - w)), 0.0)
    if side == 1:
        return Furniture(name, kind, room, r.x1 - d, float(rng.uniform(r.y0 + w, r.y1 - w)), math.pi)
    if side == 2:
        return Furniture(name, kind, room, float(rng.uniform(r.x0 + w, r.x1 - w)), r.y0 + d, math.pi / 2)
    return Furniture(name, kind, room, float(rng.uniform(r.x0 + w, r.x1 - w)), r.y1 - d, -math.pi / 2)


def _fits(f: Furniture, placed: list[Furniture]) -> bool:
    fp = f.footprint
    room = ROOMS[f.room]
    if fp.x0 < room.x0 - 1e-6 or fp.x1 > room.x1 + 1e-6 or fp.y0 < room.y0 - 1e-6 or fp.y1 > room.y1 + 1e-6:
        return False
    if any(fp.overlaps(k) for k in _KEEP_OUT):
        return False
    clear = 0.9 if f.spec.placement == "free" else 0.05
    for g in placed:
        if fp.overlaps(g.footprint, clear):
            return False
        if g.spec.placement == "wall" and fp.overlaps(g.approach):
            return False
        if f.spec.placement == "wall" and f.approach.overlaps(g.footprint):
            return False
    if f.spec.placement == "wall":  # its approach strip must stay inside the room
        a = f.approach
        if a.x0 < room.x0 or a.x1 > room.x1 or a.y0 < room.y0 or a.y1 > room.y1:
            return False
    return True


@functools.cache
def make_layout(index: int) -> Layout:
    """Furnish the apartment for layout `index` in [0, NUM_LAYOUTS). Deterministic in `index`."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < NUM_LAYOUTS:
        raise ValueError(f"layout: unknown layout {index!r}; accepted: integers 0..{NUM_LAYOUTS - 1}")
    rng = np.random.default_rng(10_007 + index)
    for _ in range(200):  # whole-layout retries; each piece gets many tries
        placed: list[Furniture] = []
        ok = True
        for name, kind, room, required in _PIECES:
            if not required and rng.random() < 0.5:
                continue
            for _ in range(300):
                cand = _candidate(rng, name, kind, room)
                if _fits(cand, placed):
                    placed.append(cand)
                    break
            else:
                if required:
                    ok = False
                    break
        if ok:
            return Layout(index, tuple(placed))
    raise RuntimeError(f"could not furnish layout {index}")  # pragma: no cover - checked by tests


@dataclass(frozen=True)
class Receptacle:
    """A surface objects can rest on, axis-aligned in world frame; `z` is the surface height."""

    name: str
    furniture: str
    center: tuple[float, float, float]
    half: tuple[float, float]
    joint: str | None = None  # articulation that carries this surface (drawer) or guards it (fridge)
    yaw: float = 0.0  # yaw of the furniture; a drawer surface moves along (cos yaw, sin yaw) as it opens

    def center_at(self, articulations: dict[str, float]) -> tuple[float, float, float]:
        """The surface's centre with the articulations at these states (joint -> m or rad): a drawer's
        surface is carried out by its opening; every other surface stays where it is."""
        cx, cy, z = self.center
        if self.joint is not None and self.joint.startswith("drawer"):
            d = articulations.get(self.joint, 0.0)
            cx, cy = cx + d * math.cos(self.yaw), cy + d * math.sin(self.yaw)
        return cx, cy, z


def _surface(
    f: Furniture, name: str, lx: float, ly: float, z: float, hd: float, hw: float, joint: str | None = None
) -> Receptacle:
    cx, cy = f.to_world(lx, ly)
    c, s = abs(math.cos(f.yaw)), abs(math.sin(f.yaw))
    return Receptacle(name, f.name, (cx, cy, z), (hd * c + hw * s, hd * s + hw * c), joint, f.yaw)


NUM_DRAWERS = 2
DRAWER_HEIGHTS = (0.55, 0.25)  # bottom height of each drawer in the cabinet (top drawer first)
FRIDGE_SHELF_Z = 0.9


def receptacles(layout: Layout) -> dict[str, Receptacle]:
    """All receptacle surfaces of a layout, by name. Drawer surfaces are given with the drawer closed."""
    out: dict[str, Receptacle] = {}
    for f in layout.furniture:
        k = f.spec
        if f.kind == "fridge":
            out["fridge"] = _surface(
                f,
                "fridge",
                -0.03,
                0.0,
                FRIDGE_SHELF_Z + 0.01,
                k.depth / 2 - 0.15,
                k.width / 2 - 0.15,
                "fridge",
            )
        elif f.kind == "cabinet":
            out[f.name] = _surface(f, f.name, 0.0, 0.0, k.height, k.depth / 2 - 0.08, k.width / 2 - 0.08)
            for i, zb in enumerate(DRAWER_HEIGHTS[:NUM_DRAWERS]):
                out[f"drawer_{i}"] = _surface(
                    f, f"drawer_{i}", 0.0, 0.0, zb + 0.02, 0.14, k.width / 2 - 0.15, f"drawer_{i}"
                )
        elif f.kind == "sofa":
            out[f.name] = _surface(f, f.name, 0.12, 0.0, k.height, 0.22, k.width / 2 - 0.3)
        else:
            out[f.name] = _surface(f, f.name, 0.0, 0.0, k.height, k.depth / 2 - 0.08, k.width / 2 - 0.08)
    return out


GRID_RES = 0.05


@functools.cache  # 32 KB a grid; a bounded cache thrashed (layouts x radii in use > 64)
def free_space(index: int, inflate: float = ROBOT_RADIUS) -> np.ndarray:
    """Boolean grid [X, Y] at GRID_RES of base positions where a robot of radius `inflate` fits."""
    layout = make_layout(index)
    nx, ny = int(APARTMENT_SIZE[0] / GRID_RES), int(APARTMENT_SIZE[1] / GRID_RES)
    xs = (np.arange(nx) + 0.5) * GRID_RES
    ys = (np.arange(ny) + 0.5) * GRID_RES
    free = np.ones((nx, ny), dtype=bool)
    for r in list(WALLS) + [f.footprint for f in layout.furniture]:
        # only the cells within `inflate` of the rectangle (plus a cell) can change: a few percent of the
        # grid each, so a layout's first grid costs a millisecond, not ten (every worker process builds its own)
        i = slice(*np.searchsorted(xs, [r.x0 - inflate - GRID_RES, r.x1 + inflate + GRID_RES]))
        j = slice(*np.searchsorted(ys, [r.y0 - inflate - GRID_RES, r.y1 + inflate + GRID_RES]))
        X, Y = xs[i, None], ys[None, j]
        dx = np.maximum(np.maximum(r.x0 - X, X - r.x1), 0.0)
        dy = np.maximum(np.maximum(r.y0 - Y, Y - r.y1), 0.0)
        free[i, j] &= np.hypot(dx, dy) > inflate
    return free


def is_free(index: int, x: float, y: float, inflate: float = ROBOT_RADIUS) -> bool:
    grid = free_space(index, inflate)
    i, j = int(x / GRID_RES), int(y / GRID_RES)
    return 0 <= i < grid.shape[0] and 0 <= j < grid.shape[1] and bool(grid[i, j])
