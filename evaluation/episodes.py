"""HAB episode sets: Tidy House, Prepare Groceries and Set Table on the held-out layouts.

Each scenario is a pure function of a seeded generator and a layout (`SCENARIOS`, a plain registry): it
chooses where each target starts and ends (`Leg`), places objects and clutter without overlap, keeps
every start and goal within the arm's measured reach (`skills.spawn.reachable_from_free`, with the
container open as the skill would leave it) and spawns the robot collision-free anywhere in the free
space; each drafted episode is loaded into the simulator once and drafted again if two bodies start
overlapping there (the base sampler's footprints leave out, e.g., the fridge handle: Tidy House seed 74's
episode 85 put the robot 4 cm into it). `generate_episodes(scenario, n, seed)` is deterministic;
`save_episodes` / `load_episodes` (`tpsrl.sim.episode`) write and read the JSON list.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from skills.episodes import OPEN_RANGE
from skills.spawn import SpawnError, articulation_disks, reachable_from_free, sample_base
from skills.splits import split_layouts
from tpsrl.sim.episode import (
    EpisodeSpec,
    ObjectPlacement,
    PlacementError,
    RobotStart,
    Target,
    load_episodes,
    save_episodes,
)
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.episodes import OPEN_SURFACES, _Placer
from tpsrl.sim.mujoco.objects import OBJECT_TYPES, object_type

__all__ = [
    "SCENARIOS",
    "ScenarioError",
    "generate_episodes",
    "load_episodes",
    "save_episodes",
    "scenario_names",
]

OPEN_DRAWER = 0.45  # how far the open_drawer skill pulls the drawer (m), for reachability of its content
OPEN_FRIDGE = 1.6  # a typical opened fridge door (rad), for reachability of its shelf
CONTAINER_PROB = 0.15  # Tidy House: chance that one target starts or ends in an (open) container
FRUIT = ("apple", "orange", "lemon", "banana")
TYPES = tuple(OBJECT_TYPES)
GROCERIES = tuple(t for t in TYPES if t not in ("bowl", "plate"))
CLUTTER = (0, 8)  # inclusive range of clutter objects per episode
TRIES = 200


class ScenarioError(ValueError):
    """An unknown scenario, or a scenario whose episodes cannot be generated; names what is accepted."""


@dataclass(frozen=True)
class Leg:
    """Where one target object starts and ends, and its type."""

    type: str
    start: str
    goal: str


@dataclass(frozen=True)
class Draft:
    """A scenario's choice for one episode: its legs and the articulation states at the start."""

    legs: tuple[Leg, ...]
    articulations: dict[str, float]


Scenario = Callable[[np.random.Generator, int], Draft]


def _surfaces(layout: int) -> list[str]:
    have = L.receptacles(L.make_layout(layout))
    return [r for r in OPEN_SURFACES if r in have]


def _two(rng: np.random.Generator, names: list[str]) -> tuple[str, str]:
    a, b = rng.choice(len(names), size=2, replace=False)
    return names[int(a)], names[int(b)]


def tidy_house(rng: np.random.Generator, layout: int) -> Draft:
    """5 objects from an open surface to another; rarely one from or to an open container."""
    surfaces = _surfaces(layout)
    legs = [Leg(str(rng.choice(GROCERIES)), *_two(rng, surfaces)) for _ in range(5)]
    arts: dict[str, float] = {}
    if rng.random() < CONTAINER_PROB:
        box = str(rng.choice(["fridge", "drawer_0"]))
        k = int(rng.integers(5))
        legs[k] = (
            Leg(legs[k].type, box, legs[k].goal)
            if rng.random() < 0.5
            else Leg(legs[k].type, legs[k].start, box)
        )
        arts[box] = float(rng.uniform(*OPEN_RANGE[box]))
    return Draft(tuple(legs), arts)


def prepare_groceries(rng: np.random.Generator, layout: int) -> Draft:
    """3 objects between the kitchen counter and the open fridge, both directions in every episode."""
    into = [True, False, bool(rng.random() < 0.5)]
    rng.shuffle(into)
    legs = tuple(
        Leg(
            str(rng.choice(GROCERIES)),
            *(("kitchen_counter", "fridge") if i else ("fridge", "kitchen_counter")),
        )
        for i in into
    )
    return Draft(legs, {"fridge": float(rng.uniform(*OPEN_RANGE["fridge"]))})


def set_table(rng: np.random.Generator, layout: int) -> Draft:
    """A bowl from the closed top drawer and a fruit from the closed fridge, both to the dining table."""
    legs = (Leg("bowl", "drawer_0", "dining_table"), Leg(str(rng.choice(FRUIT)), "fridge", "dining_table"))
    return Draft(legs, {"drawer_0": 0.0, "fridge": 0.0})


SCENARIOS: dict[str, Scenario] = {
    "tidy_house": tidy_house,
    "prepare_groceries": prepare_groceries,
    "set_table": set_table,
}


def scenario_names() -> list[str]:
    return sorted(SCENARIOS)


def get_scenario(name: str) -> Scenario:
    """The scenario generator `name`; an unknown name lists the known ones."""
    if name not in SCENARIOS:
        raise ScenarioError(f"scenario: unknown scenario {name!r}; accepted: {scenario_names()}")
    return SCENARIOS[name]


def _reach_states(arts: dict[str, float]) -> dict[str, float]:
    """Articulations as the skills leave them when they reach inside: containers opened."""
    out = dict(arts)
    for name in arts:
        out[name] = max(arts[name], OPEN_DRAWER if name.startswith("drawer") else OPEN_FRIDGE)
    return out


def _place_legs(
    rng: np.random.Generator, layout: int, draft: Draft
) -> tuple[list[ObjectPlacement], list[Target]]:
    """Objects and goals of the legs, placed with containers open and checked for reach."""
    open_arts = _reach_states(draft.articulations)
    placer = _Placer(L.make_layout(layout), open_arts)
    disks = articulation_disks(layout, open_arts)
    objects, targets = [], []
    for i, leg in enumerate(draft.legs):
        pos, goal = placer.place(rng, leg.start, leg.type), placer.place(rng, leg.goal, leg.type)
        if pos is None or goal is None:
            raise SpawnError(f"no room for target {i} ({leg}) in layout {layout}")
        top = np.array(pos) + [0.0, 0.0, object_type(leg.type).half_height]
        for p in (top, np.array(goal)):
            if not reachable_from_free(layout, p, disks):
                raise SpawnError(f"{np.round(p, 2).tolist()} in layout {layout} is out of reach")
        handle = f"obj{i}"
        objects.append(
            ObjectPlacement(handle, leg.type, _closed(pos, leg.start, draft, layout), 0.0, leg.start)
        )
        targets.append(Target(handle, _closed(goal, leg.goal, draft, layout), leg.goal))
    for i in range(int(rng.integers(CLUTTER[0], CLUTTER[1] + 1))):
        rec, typ = str(rng.choice(_surfaces(layout))), str(rng.choice(TYPES))
        pos = placer.place(rng, rec, typ)
        if pos is not None:
            objects.append(
                ObjectPlacement(f"clutter{i}", typ, pos, float(rng.uniform(-math.pi, math.pi)), rec)
            )
    return objects, targets


def _closed(p: tuple[float, float, float], rec: str, draft: Draft, layout: int) -> tuple[float, float, float]:
    """A point placed in the pulled-out drawer, moved back to where the drawer's state puts it."""
    if not rec.startswith("drawer"):
        return p
    shift = _reach_states(draft.articulations)[rec] - draft.articulations.get(rec, 0.0)
    yaw = L.receptacles(L.make_layout(layout))[rec].yaw
    return (p[0] - shift * math.cos(yaw), p[1] - shift * math.sin(yaw), p[2])


@functools.cache
def _loader() -> MujocoBackend:
    """The simulator every drafted episode is loaded into once (no camera)."""
    return MujocoBackend(depth={"mode": "none"})


def _episode(
    rng: np.random.Generator, scenario: str, index: int, seed: int, layouts: tuple[int, ...]
) -> EpisodeSpec:
    last = ""
    for _ in range(TRIES):
        layout = int(rng.choice(layouts))
        draft = get_scenario(scenario)(rng, layout)
        try:
            objects, targets = _place_legs(rng, layout, draft)
            anchor = np.array(objects[0].pos)
            x, y, yaw = sample_base(
                rng,
                layout,
                anchor,
                min_dist=0.0,
                max_dist=100.0,
                yaw_noise=math.pi,
                base_noise=0.0,
                disks=articulation_disks(layout, draft.articulations),
            )
        except (SpawnError, RuntimeError) as e:
            last = str(e)
            continue
        spec = EpisodeSpec(
            layout=layout,
            robot=RobotStart(x, y, yaw),
            objects=tuple(objects),
            targets=tuple(targets),
            articulations=tuple(sorted(draft.articulations.items())),
            episode_id=f"{scenario}-{seed}-{index:04d}",
            seed=seed + index,
        )
        try:  # draws nothing from rng: an episode the simulator accepts is the one drafted before
            _loader().reset(spec)
        except PlacementError as e:
            last = str(e)
            continue
        return spec
    raise ScenarioError(f"scenario {scenario!r}: no episode could be placed in {TRIES} tries; last: {last}")


def generate_episodes(scenario: str, n: int, seed: int = 0, split: str = "heldout") -> list[EpisodeSpec]:
    """`n` episodes of `scenario` on the `split` layouts (held-out: every evaluation; train: only to record
    where skills start inside a chain, `evaluation.starts`); episode i depends only on (seed, i)."""
    get_scenario(scenario)
    if n < 1:
        raise ScenarioError(f"episodes: {n} must be >= 1")
    layouts = split_layouts(split)
    return [_episode(np.random.default_rng([seed, i]), scenario, i, seed, layouts) for i in range(n)]


def episode_file_name(scenario: str, n: int, seed: int) -> str:
    """The name a run directory's generated episode set is saved under (`episode_file`)."""
    return f"{scenario}_{n}_seed{seed}.json"


def episode_file(scenario: str, n: int, seed: int, directory: str | Path) -> Path:
    """Generate the set and save it as `<directory>/<scenario>_<n>_seed<seed>.json` (reused if present)."""
    path = Path(directory) / episode_file_name(scenario, n, seed)
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        save_episodes(path, generate_episodes(scenario, n, seed))
    return path
