"""Simulator state -> PDDL facts (hab-reference "Symbolic layer"). Pure data in, plain tuples out.

Every backend fills a `SceneState`; `facts` turns it into tuples such as ("holding", "obj3"),
("in", "obj3", "fridge"), ("opened", "drawer_0"), ("robot_at", "goal_obj3"), ("object_at", "obj3",
"goal_obj3"). The planner builds its own typed facts from these tuples; nothing here imports it.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

Vec3 = tuple[float, float, float]
Atom = tuple[str, ...]  # a ground predicate as plain strings; the planner builds its typed `Fact`s from these


def goal_name(handle: str) -> str:
    """The entity name of the goal position of target object `handle`."""
    return f"goal_{handle}"


@dataclass(frozen=True)
class Region:
    """An axis-aligned box [lo, hi] in world coordinates."""

    lo: Vec3
    hi: Vec3

    def contains(self, p: Vec3) -> bool:
        return all(self.lo[i] <= p[i] <= self.hi[i] for i in range(3))

    @property
    def center(self) -> Vec3:
        return tuple((a + b) / 2 for a, b in zip(self.lo, self.hi, strict=True))  # type: ignore[return-value]


@dataclass(frozen=True)
class Thresholds:
    """Distances and joint thresholds of the predicates (hab-reference values)."""

    robot_at: float = 2.0  # planar distance base -> entity (m)
    object_at: float = 0.3  # object -> goal distance (m)
    drawer_opened: float = 0.35  # m
    fridge_opened: float = 1.07  # rad
    closed: float = 0.15  # |state| below this is closed (m or rad)


@dataclass(frozen=True)
class SceneState:
    """What the symbolic layer needs of a simulator state."""

    robot_xy: tuple[float, float]
    held: str | None
    objects: Mapping[str, Vec3]
    goals: Mapping[str, Vec3] = field(default_factory=dict)  # goal entity name -> position
    receptacles: Mapping[str, Region] = field(default_factory=dict)  # "in" regions, by receptacle name
    articulations: Mapping[str, float] = field(default_factory=dict)  # fridge (rad), drawer_i (m)


def is_opened(name: str, value: float, th: Thresholds = Thresholds()) -> bool:
    return value > (th.fridge_opened if name.startswith("fridge") else th.drawer_opened)


def is_closed(value: float, th: Thresholds = Thresholds()) -> bool:
    return abs(value) < th.closed


def facts(state: SceneState, th: Thresholds = Thresholds()) -> frozenset[Atom]:
    """All true facts of `state`. Objects held by the robot are in no receptacle."""
    out: set[Atom] = set()
    out.add(("holding", state.held) if state.held in state.objects else ("not_holding",))
    for name, value in state.articulations.items():
        if is_opened(name, value, th):
            out.add(("opened", name))
        elif is_closed(value, th):
            out.add(("closed", name))
    rx, ry = state.robot_xy
    entities: dict[str, Vec3] = {**state.objects, **state.goals}
    entities.update({k: r.center for k, r in state.receptacles.items()})
    for name, p in entities.items():
        if math.hypot(p[0] - rx, p[1] - ry) < th.robot_at:
            out.add(("robot_at", name))
    for h, p in state.objects.items():
        if h == state.held:
            continue
        for rname, region in state.receptacles.items():
            if region.contains(p):
                out.add(("in", h, rname))
        for g, gp in state.goals.items():
            if math.dist(p, gp) < th.object_at:
                out.add(("object_at", h, g))
    return frozenset(out)
