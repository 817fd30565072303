"""The skill registry: `TASKS` (name -> task class) and `make_env`.

Interface contract (relied on by the scripted controllers, the benchmark, training and evaluation):
- `from skills.registry import TASKS, make_env`. `TASKS: dict[str, type]`, name -> task class; each task
  class has a `Config` dataclass (`TASKS[name].Config`) with the skill's fields (docs/skills.md).
- `make_env(skill, **overrides) -> RearrangeEnv` builds the env with the skill's HAB observation and
  action spaces; overrides are `Config` fields (`base_movement`, `depth`, `split`, `max_steps`, ...) plus
  `seed` (seeds the episode sampler). Unknown skill or field: `ValueError` naming it and what is accepted.
- `env_factory(skill, **overrides)`: the same as a picklable zero-argument factory for worker processes.
- The env exposes `env.backend` (privileged state), `env.task` (its `config`, the episode's target),
  `env.backend.spec` (the episode spec), and `info["episode_stats"]` at episode end with `success`,
  `fail/<cause>` (0/1) and `return/<term>`.
"""

from __future__ import annotations

from dataclasses import asdict, fields
from typing import Any, get_type_hints

from tpsrl.sim.env import RearrangeEnv, RearrangeEnvFactory
from tpsrl.sim.task import FreeTask

from .articulated import CloseDrawerTask, CloseFridgeTask, OpenDrawerTask, OpenFridgeTask
from .nav import NavToObjTask
from .pick import PickTask
from .place import PlaceTask

TASKS: dict[str, type] = {
    "nav_to_obj": NavToObjTask,
    "pick": PickTask,
    "place": PlaceTask,
    "open_fridge": OpenFridgeTask,
    "close_fridge": CloseFridgeTask,
    "open_drawer": OpenDrawerTask,
    "close_drawer": CloseDrawerTask,
}
"""The seven HAB skills; `free` (no reward) is the simulator's own task, not a skill."""
REGISTRY_PATH = "skills.registry:TASKS"


def task_class(skill: str) -> type:
    """The task class of `skill`; an unknown name lists the known ones."""
    if skill not in TASKS:
        raise ValueError(f"skill: unknown skill {skill!r}; known: {sorted(TASKS)}")
    return TASKS[skill]


def legacy_values(skill: str) -> dict[str, Any]:
    """Fields of the skill's config added after runs were trained, and the value those runs had (`LEGACY`)."""
    out: dict[str, Any] = {}
    for cls in reversed(task_class(skill).Config.__mro__):
        out.update(cls.__dict__.get("LEGACY", {}))
    return out


def legacy_fields(skill: str, stored: dict[str, Any]) -> dict[str, Any]:
    """A checkpoint's stored task config with the fields it predates set to the values it was trained
    with, not today's defaults."""
    return {**legacy_values(skill), **stored}


def make_config(skill: str, **overrides: Any) -> Any:
    """The skill's config with `overrides`; an unknown field names the accepted ones."""
    cls = task_class(skill).Config
    names = {f.name for f in fields(cls)}
    hints = get_type_hints(cls)
    for k, v in overrides.items():
        if k not in names:
            raise ValueError(f"skill.{k}: unknown field for skill {skill!r}; accepted: {sorted(names)}")
        want = hints.get(k)
        if want is float and isinstance(v, int) and not isinstance(v, bool):
            overrides[k] = float(v)
        elif want in (bool, int, float, str) and (
            not isinstance(v, want) or (want is not bool and isinstance(v, bool))
        ):
            raise ValueError(f"skill.{k}: {v!r} is not of type {want.__name__}")
    return cls(**overrides)


def make_env(skill: str, seed: int | None = None, **overrides: Any) -> RearrangeEnv:
    """The env of `skill` with its HAB spaces; `overrides` are its config fields."""
    task = task_class(skill)(make_config(skill, **overrides))
    env = RearrangeEnv(task=task)
    if seed is not None:
        env.seed_sampler(seed)
    return env


def env_factory(skill: str, **overrides: Any) -> RearrangeEnvFactory:
    """A picklable factory that builds `make_env(skill, **overrides)` in any process."""
    cfg = make_config(skill, **overrides)
    return RearrangeEnvFactory(task=skill, task_config=asdict(cfg), registry=REGISTRY_PATH)


__all__ = ["TASKS", "FreeTask", "make_env", "make_config", "env_factory", "task_class"]
