"""The task seam: what a training or evaluation task adds on top of the simulator.

A task has three parts, kept apart so each can be read and tested alone:
- `episodes`: an `EpisodeSource` that chooses the next episode (layout, objects, robot start);
- `step`: the raw reward terms, termination, success and failure cause of one step (`TaskStep`);
- `reward_scales`: one scale per term, from the task's typed config. `RearrangeEnv` multiplies the
  raw terms by their scales in one place (`scale_terms`), sums them into the reward and logs each
  scaled term (`info["reward_terms"]`, per-episode `episode_stats["return/<term>"]`).

`TASKS` names the tasks the simulator itself ships (the free-roaming task); skill tasks live in the
user's `skills` package and are listed in `skills.registry.TASKS`. `RearrangeEnvFactory` resolves a
task name in a registry given as "module:attribute", so worker processes rebuild the same task.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from .backend import SimBackend
from .episode import EpisodeSpec, load_episodes

if TYPE_CHECKING:
    from .env import EnvConfig


@dataclass
class TaskStep:
    """What a task says about one step. Reward terms are raw (unscaled); the env applies the scales."""

    reward_terms: dict[str, float] = field(default_factory=dict)
    """Raw value of each reward term this step (term name -> value before its scale)."""
    terminated: bool = False
    """The episode ends now (success or failure)."""
    success: bool = False
    """The task's success rule holds."""
    failure: str | None = None
    """Why the episode failed, one of the task's `failure_causes` (None: it did not fail now)."""
    info: dict[str, float] = field(default_factory=dict)
    """Extra per-step figures for `info`."""


class EpisodeSource(Protocol):
    """Chooses episodes; independent of rewards."""

    def sample(self, backend: SimBackend, rng: np.random.Generator) -> EpisodeSpec: ...


class Task(Protocol):
    """A training or evaluation task on top of the simulator."""

    name: str
    episodes: EpisodeSource
    failure_causes: tuple[str, ...]

    @property
    def reward_scales(self) -> Mapping[str, float]: ...
    def env_config(self) -> EnvConfig: ...
    def reset(self, backend: SimBackend, spec: EpisodeSpec) -> None: ...
    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep: ...


def scale_terms(raw: Mapping[str, float], scales: Mapping[str, float]) -> dict[str, float]:
    """The one place reward terms get their scale; an unscaled term is a task bug and raises."""
    missing = set(raw) - set(scales)
    if missing:
        raise KeyError(f"reward terms without a scale: {sorted(missing)}; scales: {sorted(scales)}")
    return {k: float(scales[k] * v) for k, v in raw.items()}


# ----------------------------------------------------------------------------------------- free task
@dataclass
class FreeTaskConfig:
    """Configuration of the free-roaming task (random episodes, no reward)."""

    n_targets: int = 1
    """Target objects per episode."""
    clutter: tuple[int, int] = (0, 10)
    """Inclusive range of clutter objects per sampled episode."""
    layouts: tuple[int, ...] | None = None
    """Layouts to sample from (None: all)."""
    episodes_file: str | None = None
    """JSON file of fixed episodes, cycled in order, instead of sampling."""
    max_steps: int = 300
    """Episode length cap (truncation)."""


class RandomEpisodes:
    """Samples random episodes with the backend's sampler, or cycles a file of fixed episodes."""

    def __init__(self, cfg: FreeTaskConfig) -> None:
        self.cfg = cfg
        self._fixed: list[EpisodeSpec] | None = None
        self._next = 0

    def sample(self, backend: SimBackend, rng: np.random.Generator) -> EpisodeSpec:
        cfg = self.cfg
        if cfg.episodes_file is not None:
            if self._fixed is None:
                self._fixed = load_episodes(cfg.episodes_file)
            spec = self._fixed[self._next % len(self._fixed)]
            self._next += 1
            return spec
        layout = None if cfg.layouts is None else int(rng.choice(cfg.layouts))
        return backend.sample_episode(rng, layout=layout, n_targets=cfg.n_targets, n_clutter=cfg.clutter)


class FreeTask:
    """Random episodes, no reward, no termination: free roaming for demos and benchmarks."""

    name = "free"
    Config = FreeTaskConfig
    failure_causes: tuple[str, ...] = ()

    def __init__(self, config: FreeTaskConfig | None = None) -> None:
        self.config = config or FreeTaskConfig()
        self.episodes: EpisodeSource = RandomEpisodes(self.config)

    @property
    def reward_scales(self) -> Mapping[str, float]:
        return {}

    def env_config(self) -> EnvConfig:
        from .env import EnvConfig

        c = self.config
        return EnvConfig(n_targets=c.n_targets, clutter=c.clutter, layouts=c.layouts, max_steps=c.max_steps)

    def reset(self, backend: SimBackend, spec: EpisodeSpec) -> None:
        pass

    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep:
        return TaskStep()


TASKS: dict[str, type] = {"free": FreeTask}
"""Tasks shipped with the simulator; skill tasks are in `skills.registry.TASKS`."""


def resolve_registry(path: str) -> Mapping[str, type]:
    """Import a task registry named "module:attribute" (lazily, as backends are)."""
    module, _, attr = path.partition(":")
    try:
        return getattr(importlib.import_module(module), attr)
    except (ImportError, AttributeError) as e:
        raise ValueError(
            f"task registry: cannot import {path!r} ({e}); expected 'module:attribute'"
        ) from None


def make_task(
    name: str, config: Mapping[str, Any] | None = None, registry: str = "tpsrl.sim.task:TASKS"
) -> Any:
    """Build task `name` from a registry with its config given as plain data."""
    tasks = resolve_registry(registry)
    if name not in tasks:
        raise ValueError(f"task: unknown task {name!r}; known: {sorted(tasks)}")
    cls = tasks[name]
    return cls(cls.Config(**dict(config or {})))
