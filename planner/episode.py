"""Episode descriptions: what a rearrangement episode asks for, as plain data (no simulator types).

An :class:`Episode` lists the articulated receptacles (fridge, drawers) with their initial state, the goal
positions (optionally inside a receptacle), and the objects with where they start and which goal position
they must reach; objects without a goal are distractors. It is validated on construction, and
:meth:`Episode.from_dict` reads the same structure from a plain dict (YAML or JSON)::

    Episode.from_dict({
        "receptacles": [{"handle": "fridge", "kind": "fridge", "opened": False}],
        "goals": [{"handle": "table_0"}, {"handle": "fridge_shelf", "receptacle": "fridge"}],
        "objects": [{"handle": "apple", "start": "fridge", "goal": "table_0"}, {"handle": "mug"}],
        "robot_start": None,
        "final_states": {"fridge": "closed"},
    })
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

__all__ = [
    "RECEPTACLE_KINDS",
    "ROBOT_ORIGIN",
    "Episode",
    "EpisodeError",
    "GoalSpec",
    "ObjectSpec",
    "ReceptacleSpec",
]

#: Kinds of articulated receptacle; each is a PDDL type with its own open/close skills.
RECEPTACLE_KINDS: tuple[str, ...] = ("fridge", "drawer")

#: Handle of the waypoint the robot starts at when it starts near nothing in particular.
ROBOT_ORIGIN = "robot_origin"

_STATES = ("opened", "closed")


class EpisodeError(ValueError):
    """An episode description that names something unknown or malformed; the message gives the field."""


@dataclass(frozen=True)
class ReceptacleSpec:
    """An articulated receptacle."""

    handle: str
    #: one of RECEPTACLE_KINDS
    kind: str
    #: initial state: True if open at the start of the episode
    opened: bool = False


@dataclass(frozen=True)
class GoalSpec:
    """A goal position an object can be placed at."""

    handle: str
    #: receptacle the position is inside (placing there needs it open), or None for an open surface
    receptacle: str | None = None


@dataclass(frozen=True)
class ObjectSpec:
    """A movable object."""

    handle: str
    #: receptacle the object starts inside, or None if it starts on an open surface
    start: str | None = None
    #: goal position it must reach, or None for a distractor
    goal: str | None = None


@dataclass(frozen=True)
class Episode:
    """A rearrangement episode, validated on construction (unknown handles raise :class:`EpisodeError`)."""

    objects: tuple[ObjectSpec, ...]
    goals: tuple[GoalSpec, ...]
    receptacles: tuple[ReceptacleSpec, ...] = ()
    #: handle of the entity the robot starts next to, or None (it starts at ROBOT_ORIGIN)
    robot_start: str | None = None
    #: receptacle handle -> "opened" | "closed" required at the end of the episode
    final_states: tuple[tuple[str, str], ...] = ()
    name: str = "episode"

    def __post_init__(self) -> None:
        for name in ("objects", "goals", "receptacles", "final_states"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        seen: dict[str, str] = {ROBOT_ORIGIN: "the robot's start waypoint (reserved)"}
        groups = (("receptacles", self.receptacles), ("goals", self.goals), ("objects", self.objects))
        for group, specs in groups:
            for i, spec in enumerate(specs):
                where = f"episode.{group}[{i}].handle"
                if not isinstance(spec.handle, str) or not spec.handle.strip():
                    raise EpisodeError(f"{where}: expected a non-empty string, got {spec.handle!r}")
                if spec.handle in seen:
                    raise EpisodeError(f"{where}: {spec.handle!r} is already used by {seen[spec.handle]}")
                seen[spec.handle] = f"episode.{group}[{i}]"
        receptacles = sorted(r.handle for r in self.receptacles)
        goals = sorted(g.handle for g in self.goals)
        for i, r in enumerate(self.receptacles):
            if r.kind not in RECEPTACLE_KINDS:
                raise EpisodeError(
                    f"episode.receptacles[{i}].kind: {r.kind!r} is not a receptacle kind; "
                    f"accepted: {list(RECEPTACLE_KINDS)}"
                )
        for i, g in enumerate(self.goals):
            _known(g.receptacle, receptacles, f"episode.goals[{i}].receptacle", "receptacle")
        for i, o in enumerate(self.objects):
            _known(o.start, receptacles, f"episode.objects[{i}].start", "receptacle")
            _known(o.goal, goals, f"episode.objects[{i}].goal", "goal position")
        if self.robot_start is not None and (
            self.robot_start not in seen or self.robot_start == ROBOT_ORIGIN
        ):
            _known(self.robot_start, sorted(set(seen) - {ROBOT_ORIGIN}), "episode.robot_start", "entity")
        for handle, state in self.final_states:
            _known(handle, receptacles, f"episode.final_states[{handle!r}]", "receptacle")
            if state not in _STATES:
                raise EpisodeError(f"episode.final_states[{handle!r}]: {state!r}; accepted: {list(_STATES)}")

    @property
    def targets(self) -> tuple[ObjectSpec, ...]:
        """The objects that have a goal (the rest are distractors)."""
        return tuple(o for o in self.objects if o.goal is not None)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Episode:
        """Build an episode from plain data; unknown fields and handles raise :class:`EpisodeError`."""
        _no_unknown(data, {f.name for f in fields(cls)}, "episode")
        final = data.get("final_states", {})
        if isinstance(final, Mapping):
            final = tuple(final.items())
        return cls(
            objects=tuple(
                _spec(ObjectSpec, d, f"episode.objects[{i}]") for i, d in enumerate(data["objects"])
            ),
            goals=tuple(_spec(GoalSpec, d, f"episode.goals[{i}]") for i, d in enumerate(data["goals"])),
            receptacles=tuple(
                _spec(ReceptacleSpec, d, f"episode.receptacles[{i}]")
                for i, d in enumerate(data.get("receptacles", ()))
            ),
            robot_start=data.get("robot_start"),
            final_states=tuple((str(h), str(s)) for h, s in final),
            name=str(data.get("name", "episode")),
        )


def _known(handle: str | None, known: list[str], where: str, what: str) -> None:
    if handle is not None and handle not in known:
        raise EpisodeError(f"{where}: unknown {what} {handle!r}; known: {known}")


def _no_unknown(data: Mapping[str, Any], accepted: set[str], where: str) -> None:
    if not isinstance(data, Mapping):
        raise EpisodeError(f"{where}: expected a mapping, got {type(data).__name__}")
    extra = sorted(set(data) - accepted)
    if extra:
        raise EpisodeError(f"{where}: unknown field(s) {extra}; accepted: {sorted(accepted)}")


def _spec(kind: type, data: Mapping[str, Any], where: str) -> Any:
    _no_unknown(data, {f.name for f in fields(kind)}, where)
    if "handle" not in data:
        raise EpisodeError(f"{where}: missing field 'handle'")
    return kind(**data)
