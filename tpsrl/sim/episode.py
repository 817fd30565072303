"""Typed episode specs: everything needed to reset a simulator deterministically, round-tripping JSON.

A spec is plain data; `validate_episode` checks it against what a backend accepts (layouts, object
types, articulations and their ranges) and raises `EpisodeSpecError` naming the field, the value and the
accepted values.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

Vec3 = tuple[float, float, float]


class EpisodeSpecError(ValueError):
    """An invalid episode spec; the message names the field, the value and what is accepted."""


class PlacementError(EpisodeSpecError):
    """A well-formed episode whose bodies overlap at the start (the robot or an object inside a wall,
    furniture, the robot or another object)."""


@dataclass(frozen=True)
class RobotStart:
    """Robot base pose (world frame, metres / radians) and optional arm joint positions (7)."""

    x: float
    y: float
    yaw: float = 0.0
    arm: tuple[float, ...] | None = None


@dataclass(frozen=True)
class ObjectPlacement:
    """A movable object: unique handle, catalogue type, position of its centre, yaw about z."""

    handle: str
    type: str
    pos: Vec3
    yaw: float = 0.0
    receptacle: str | None = None


@dataclass(frozen=True)
class Target:
    """A rearrangement target: object `handle` must end within tolerance of `goal`."""

    handle: str
    goal: Vec3
    goal_receptacle: str | None = None


@dataclass(frozen=True)
class EpisodeSpec:
    """One episode: scene layout, robot start, objects, targets and articulated joint states."""

    layout: int
    robot: RobotStart
    objects: tuple[ObjectPlacement, ...] = ()
    targets: tuple[Target, ...] = ()
    articulations: tuple[tuple[str, float], ...] = ()
    held: str | None = None
    nav_goal: tuple[float, float] | None = None
    marker: str | None = None  # articulation whose handle a skill targets (marker_rel_pos sensor)
    episode_id: str = ""
    seed: int = 0

    @property
    def articulation_dict(self) -> dict[str, float]:
        return dict(self.articulations)

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["articulations"] = dict(self.articulations)
        return d

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), sort_keys=True)

    @classmethod
    def from_json(cls, text: str, source: str = "episode") -> EpisodeSpec:
        try:
            data = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as e:
            raise EpisodeSpecError(f"{source}: not valid JSON ({e})") from None
        return cls.from_dict(data, source)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], source: str = "episode") -> EpisodeSpec:
        """Parse and type-check a dict (as written by `to_dict`); errors name the field path."""
        _expect_keys(data, source, required={"layout", "robot"}, optional={f for f in _EPISODE_FIELDS})
        r = data["robot"]
        _expect_keys(r, f"{source}.robot", required={"x", "y"}, optional={"yaw", "arm"})
        arm = r.get("arm")
        robot = RobotStart(
            _num(r["x"], f"{source}.robot.x"),
            _num(r["y"], f"{source}.robot.y"),
            _num(r.get("yaw", 0.0), f"{source}.robot.yaw"),
            None if arm is None else _vec(arm, f"{source}.robot.arm", 7),
        )
        objects = []
        for i, o in enumerate(_seq(data.get("objects", []), f"{source}.objects")):
            p = f"{source}.objects[{i}]"
            _expect_keys(o, p, required={"handle", "type", "pos"}, optional={"yaw", "receptacle"})
            objects.append(
                ObjectPlacement(
                    _str(o["handle"], f"{p}.handle"),
                    _str(o["type"], f"{p}.type"),
                    _vec(o["pos"], f"{p}.pos", 3),
                    _num(o.get("yaw", 0.0), f"{p}.yaw"),
                    None if o.get("receptacle") is None else _str(o["receptacle"], f"{p}.receptacle"),
                )
            )
        targets = []
        for i, t in enumerate(_seq(data.get("targets", []), f"{source}.targets")):
            p = f"{source}.targets[{i}]"
            _expect_keys(t, p, required={"handle", "goal"}, optional={"goal_receptacle"})
            gr = t.get("goal_receptacle")
            targets.append(
                Target(
                    _str(t["handle"], f"{p}.handle"),
                    _vec(t["goal"], f"{p}.goal", 3),
                    None if gr is None else _str(gr, f"{p}.goal_receptacle"),
                )
            )
        arts = data.get("articulations", {})
        if not isinstance(arts, Mapping):
            raise EpisodeSpecError(
                f"{source}.articulations: expected a mapping name -> joint state, got {arts!r}"
            )
        nav = data.get("nav_goal")
        layout = data["layout"]
        if isinstance(layout, bool) or not isinstance(layout, int):
            raise EpisodeSpecError(f"{source}.layout: expected an integer layout index, got {layout!r}")
        held = data.get("held")
        return cls(
            layout=layout,
            robot=robot,
            objects=tuple(objects),
            targets=tuple(targets),
            articulations=tuple(
                (str(k), _num(v, f"{source}.articulations.{k}")) for k, v in sorted(arts.items())
            ),
            held=None if held is None else _str(held, f"{source}.held"),
            nav_goal=None if nav is None else _vec(nav, f"{source}.nav_goal", 2),  # type: ignore[arg-type]
            marker=None if data.get("marker") is None else _str(data["marker"], f"{source}.marker"),
            episode_id=_episode_id(data.get("episode_id", ""), f"{source}.episode_id"),
            seed=_seed(data.get("seed", 0), f"{source}.seed"),
        )


_EPISODE_FIELDS = (
    "layout",
    "robot",
    "objects",
    "targets",
    "articulations",
    "held",
    "nav_goal",
    "marker",
    "episode_id",
    "seed",
)


def _expect_keys(d: Any, path: str, required: set[str], optional: set[str]) -> None:
    if not isinstance(d, Mapping):
        raise EpisodeSpecError(f"{path}: expected a mapping, got {type(d).__name__} {d!r}")
    missing = required - set(d)
    if missing:
        raise EpisodeSpecError(f"{path}: missing field(s) {sorted(missing)}")
    unknown = set(d) - required - optional
    if unknown:
        raise EpisodeSpecError(
            f"{path}: unknown field(s) {sorted(unknown)}; accepted: {sorted(required | optional)}"
        )


def _num(v: Any, path: str) -> float:
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        raise EpisodeSpecError(f"{path}: expected a finite number, got {v!r}")
    return float(v)


def _seed(v: Any, path: str) -> int:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < 2**63:
        raise EpisodeSpecError(f"{path}: expected an integer in [0, 2**63), got {v!r}")
    return v


def _episode_id(v: Any, path: str) -> str:
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise EpisodeSpecError(f"{path}: expected a string, got {v!r}")
    return str(v)


def _str(v: Any, path: str) -> str:
    if not isinstance(v, str) or not v:
        raise EpisodeSpecError(f"{path}: expected a non-empty string, got {v!r}")
    return v


def _seq(v: Any, path: str) -> Sequence[Any]:
    if isinstance(v, (str, bytes)) or not isinstance(v, Sequence):
        raise EpisodeSpecError(f"{path}: expected a list, got {v!r}")
    return v


def _vec(v: Any, path: str, n: int) -> tuple[float, ...]:
    s = _seq(v, path)
    if len(s) != n:
        raise EpisodeSpecError(f"{path}: expected {n} numbers, got {len(s)}: {v!r}")
    return tuple(_num(x, f"{path}[{i}]") for i, x in enumerate(s))


@dataclass(frozen=True)
class EpisodeRules:
    """What a backend accepts; `validate_episode` checks a spec against it."""

    num_layouts: int
    object_types: frozenset[str]
    articulations: Mapping[str, tuple[float, float]] = field(default_factory=dict)
    arm_ranges: tuple[tuple[float, float], ...] | None = None
    bounds: tuple[float, float, float, float] = (0.0, 0.0, 10.0, 8.0)
    max_height: float = 2.5


YAW_LIMIT = 16 * math.pi
"""Largest |yaw| accepted (rad): beyond it a hinge angle loses precision (MuJoCo resets on 1e12)."""


def _check_yaw(yaw: float, path: str) -> None:
    if not abs(yaw) <= YAW_LIMIT:
        raise EpisodeSpecError(f"{path}: {yaw} rad; accepted: |yaw| <= {YAW_LIMIT:.1f} (16 pi)")


def _check_point(p: Sequence[float], rules: EpisodeRules, path: str) -> None:
    x0, y0, x1, y1 = rules.bounds
    inside = x0 <= p[0] <= x1 and y0 <= p[1] <= y1 and (len(p) < 3 or 0.0 <= p[2] <= rules.max_height)
    if not inside:
        z = f" x [0, {rules.max_height}]" if len(p) >= 3 else ""
        raise EpisodeSpecError(f"{path}: {tuple(p)} outside the apartment [{x0}, {x1}] x [{y0}, {y1}]{z}")


def _validate_poses(spec: EpisodeSpec, rules: EpisodeRules, source: str) -> None:
    """Yaws, goals and the navigation goal within range (positions of robot and objects: below)."""
    _check_yaw(spec.robot.yaw, f"{source}.robot.yaw")
    for i, o in enumerate(spec.objects):
        _check_yaw(o.yaw, f"{source}.objects[{i}].yaw")
    for i, t in enumerate(spec.targets):
        _check_point(t.goal, rules, f"{source}.targets[{i}].goal")
    if spec.nav_goal is not None:
        _check_point(spec.nav_goal, rules, f"{source}.nav_goal")


def validate_episode(spec: EpisodeSpec, rules: EpisodeRules, source: str = "episode") -> None:
    """Raise `EpisodeSpecError` on the first field the backend cannot accept."""
    if not 0 <= spec.layout < rules.num_layouts:
        raise EpisodeSpecError(
            f"{source}.layout: unknown layout {spec.layout}; accepted: 0..{rules.num_layouts - 1}"
        )
    _validate_poses(spec, rules, source)
    x0, y0, x1, y1 = rules.bounds
    if not (x0 <= spec.robot.x <= x1 and y0 <= spec.robot.y <= y1):
        raise EpisodeSpecError(
            f"{source}.robot: position ({spec.robot.x}, {spec.robot.y}) outside the apartment [{x0}, {x1}] x [{y0}, {y1}]"
        )
    if spec.robot.arm is not None and rules.arm_ranges is not None:
        for i, (q, (lo, hi)) in enumerate(zip(spec.robot.arm, rules.arm_ranges, strict=True)):
            if not lo <= q <= hi:
                raise EpisodeSpecError(f"{source}.robot.arm[{i}]: {q} outside the joint range [{lo}, {hi}]")
    handles: set[str] = set()
    for i, o in enumerate(spec.objects):
        p = f"{source}.objects[{i}]"
        if o.handle in handles:
            raise EpisodeSpecError(f"{p}.handle: duplicate handle {o.handle!r}")
        handles.add(o.handle)
        if o.type not in rules.object_types:
            raise EpisodeSpecError(
                f"{p}.type: unknown object type {o.type!r}; accepted: {sorted(rules.object_types)}"
            )
        if not (x0 <= o.pos[0] <= x1 and y0 <= o.pos[1] <= y1 and 0.0 <= o.pos[2] <= 2.5):
            raise EpisodeSpecError(
                f"{p}.pos: {o.pos} outside the apartment [{x0}, {x1}] x [{y0}, {y1}] x [0, 2.5]"
            )
    for i, t in enumerate(spec.targets):
        if t.handle not in handles:
            raise EpisodeSpecError(
                f"{source}.targets[{i}].handle: no object {t.handle!r}; objects: {sorted(handles)}"
            )
    if spec.held is not None and spec.held not in handles:
        raise EpisodeSpecError(f"{source}.held: no object {spec.held!r}; objects: {sorted(handles)}")
    if spec.marker is not None and spec.marker not in rules.articulations:
        raise EpisodeSpecError(
            f"{source}.marker: unknown articulation {spec.marker!r}; accepted: {sorted(rules.articulations)}"
        )
    for name, value in spec.articulations:
        if name not in rules.articulations:
            raise EpisodeSpecError(
                f"{source}.articulations: unknown articulation {name!r}; accepted: {sorted(rules.articulations)}"
            )
        lo, hi = rules.articulations[name]
        if not lo <= value <= hi:
            raise EpisodeSpecError(f"{source}.articulations.{name}: {value} outside [{lo}, {hi}]")


def save_episodes(path: str | Path, episodes: Sequence[EpisodeSpec]) -> None:
    """Write episodes as a JSON list (refuses to overwrite an existing file)."""
    p = Path(path)
    if p.exists():
        raise FileExistsError(f"{p} exists; episodes are never overwritten (choose another path)")
    p.write_text(json.dumps([e.to_dict() for e in episodes], indent=1, sort_keys=True))


def load_episodes(path: str | Path) -> list[EpisodeSpec]:
    """Reads a JSON list of episodes; every problem (missing, unreadable, empty or not JSON, no episodes,
    a bad field) raises `EpisodeSpecError` naming the file (and the field)."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise EpisodeSpecError(f"{p}: not a text file (binary?); accepted: a JSON list of episodes") from None
    except OSError as e:
        raise EpisodeSpecError(
            f"{p}: cannot be read ({e.strerror or e}); accepted: a JSON list of episodes"
        ) from None
    if not text.strip():
        raise EpisodeSpecError(f"{p}: the file is empty; accepted: a JSON list of episodes")
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise EpisodeSpecError(f"{p}: not valid JSON ({e}); accepted: a JSON list of episodes") from None
    if not isinstance(data, list):
        raise EpisodeSpecError(f"{p}: expected a JSON list of episodes, got {type(data).__name__}")
    if not data:
        raise EpisodeSpecError(f"{p}: the list holds no episodes; accepted: at least one")
    return [EpisodeSpec.from_dict(d, f"{p}[{i}]") for i, d in enumerate(data)]
