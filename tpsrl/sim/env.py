"""`RearrangeEnv`: a `gymnasium.Env` over any simulator backend, with HAB action/observation spaces.

Rewards come from a pluggable `Task` as named terms (summed here, reported per term in
`info["reward_terms"]`); the default task samples random episodes and gives no reward, which is what
the demo and the simulator benchmark use. Skill training tasks plug in through the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

from .backend import DepthSettings, SimBackend, make_backend
from .episode import EpisodeSpec, load_episodes
from .sensors import ACTIONS, SENSORS, SensorContext

ALL_OBSERVATIONS = tuple(SENSORS)


@dataclass
class EnvConfig:
    """Configuration of `RearrangeEnv`."""

    backend: str = "mujoco"
    """Simulator backend name (see tpsrl.sim.backend.BACKENDS)."""
    actions: tuple[str, ...] = tuple(ACTIONS)
    """Action components in the flat action vector, in HAB order."""
    base_movement: bool = True
    """False drops base_velocity from the actions (TP-SRL's per-skill action space)."""
    observations: tuple[str, ...] = ALL_OBSERVATIONS
    """Observation keys (HAB sensor names)."""
    depth: DepthSettings = field(default_factory=DepthSettings)
    """Head depth rendering: mode, resolution, max depth."""
    max_steps: int = 300
    """Episode length cap (truncation)."""
    n_targets: int = 1
    """Target objects per episode (sizes the per-target sensors)."""
    clutter: tuple[int, int] = (0, 10)
    """Inclusive range of clutter objects per sampled episode."""
    layouts: tuple[int, ...] | None = None
    """Layouts to sample from (None: all)."""
    episodes_file: str | None = None
    """JSON file of fixed episodes, cycled in order, instead of sampling."""

    def __post_init__(self) -> None:
        self.actions = tuple(self.actions)
        self.observations = tuple(self.observations)
        self.clutter = tuple(self.clutter)  # type: ignore[assignment]
        if isinstance(self.depth, dict):
            self.depth = DepthSettings(**self.depth)
        for a in self.actions:
            if a not in ACTIONS:
                raise ValueError(f"env.actions: unknown action {a!r}; accepted: {list(ACTIONS)}")
        for o in self.observations:
            if o not in SENSORS:
                raise ValueError(f"env.observations: unknown observation {o!r}; accepted: {list(SENSORS)}")
        if self.max_steps < 1:
            raise ValueError(f"env.max_steps: {self.max_steps} must be >= 1")
        if self.n_targets < 0:
            raise ValueError(f"env.n_targets: {self.n_targets} must be >= 0")
        if len(self.clutter) != 2 or not 0 <= self.clutter[0] <= self.clutter[1]:
            raise ValueError(f"env.clutter: {self.clutter} must be (min, max) with 0 <= min <= max")
        if self.depth.mode == "none" and "head_depth" in self.observations:
            raise ValueError(
                "env.observations: 'head_depth' needs env.depth.mode 'raycast' or 'gl', got 'none'"
            )

    @property
    def active_actions(self) -> tuple[str, ...]:
        return tuple(a for a in self.actions if self.base_movement or a != "base_velocity")


@dataclass
class TaskStep:
    """What a task says about one step."""

    reward_terms: dict[str, float] = field(default_factory=dict)
    terminated: bool = False
    success: bool = False
    info: dict[str, float] = field(default_factory=dict)


class Task(Protocol):
    """A training or evaluation task on top of the simulator (rewards, success, episode choice)."""

    def episode(self, backend: SimBackend, rng: np.random.Generator, cfg: EnvConfig) -> EpisodeSpec: ...
    def reset(self, backend: SimBackend) -> None: ...
    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep: ...


class FreeTask:
    """Random episodes, no reward, no termination: free roaming for demos and benchmarks."""

    def __init__(self) -> None:
        self._fixed: list[EpisodeSpec] | None = None
        self._next = 0

    def episode(self, backend: SimBackend, rng: np.random.Generator, cfg: EnvConfig) -> EpisodeSpec:
        if cfg.episodes_file is not None:
            if self._fixed is None:
                self._fixed = load_episodes(cfg.episodes_file)
            spec = self._fixed[self._next % len(self._fixed)]
            self._next += 1
            return spec
        layout = None if cfg.layouts is None else int(rng.choice(cfg.layouts))
        return backend.sample_episode(rng, layout=layout, n_targets=cfg.n_targets, n_clutter=cfg.clutter)

    def reset(self, backend: SimBackend) -> None:
        pass

    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep:
        return TaskStep()


class RearrangeEnv(gym.Env):
    """HAB-style rearrangement env: dict observations, one flat Box action in [-1, 1]."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(
        self, config: EnvConfig | dict | None = None, task: Task | None = None, render_mode: str | None = None
    ) -> None:
        self.cfg = config if isinstance(config, EnvConfig) else EnvConfig(**(config or {}))
        self.task = task or FreeTask()
        self.render_mode = render_mode
        self.backend: SimBackend = make_backend(self.cfg.backend, depth=self.cfg.depth)
        self._slices: dict[str, slice] = {}
        start = 0
        for a in self.cfg.active_actions:
            self._slices[a] = slice(start, start + ACTIONS[a])
            start += ACTIONS[a]
        self.action_space = gym.spaces.Box(-1.0, 1.0, (start,), dtype=np.float32)
        hw = (self.cfg.depth.height, self.cfg.depth.width)
        self.observation_space = gym.spaces.Dict(
            {
                k: gym.spaces.Box(
                    SENSORS[k].low,
                    SENSORS[k].high,
                    SENSORS[k].shape(self.cfg.n_targets, hw),
                    dtype=np.float32,
                )
                for k in self.cfg.observations
            }
        )
        self._rng = np.random.default_rng()
        self._ctx: SensorContext | None = None
        self._t = 0
        self._return_terms: dict[str, float] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        spec = (options or {}).get("episode") or self.task.episode(self.backend, self._rng, self.cfg)
        if isinstance(spec, dict):
            spec = EpisodeSpec.from_dict(spec)
        self.backend.reset(spec)
        self.task.reset(self.backend)
        handles = [t.handle for t in spec.targets]
        goals = np.array([t.goal for t in spec.targets], dtype=np.float64).reshape(-1, 3)
        nav = None if spec.nav_goal is None else np.asarray(spec.nav_goal)
        self._ctx = SensorContext(handles, goals, nav, self.cfg.depth.max_depth, self.cfg.n_targets)
        self._t = 0
        self._return_terms = {}
        return self._observe(), {"episode_id": spec.episode_id, "layout": spec.layout}

    def _observe(self) -> dict[str, np.ndarray]:
        return {k: SENSORS[k].read(self.backend, self._ctx) for k in self.cfg.observations}

    def step(self, action: np.ndarray) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        a = np.asarray(action, dtype=np.float64).reshape(-1)
        if a.shape != self.action_space.shape or not np.isfinite(a).all():
            raise ValueError(
                f"action: expected {self.action_space.shape[0]} finite values for {list(self._slices)}, got {action!r}"
            )
        parts = {k: a[s] for k, s in self._slices.items()}
        grip = parts.get("grip_action")
        self.backend.step(
            parts.get("arm_action"), None if grip is None else float(grip[0]), parts.get("base_velocity")
        )
        self._t += 1
        info: dict[str, Any] = {
            "force_instant": self.backend.force_instant,
            "force_accum": self.backend.force_accum,
        }
        if self.backend.unstable:
            info["physics_unstable"] = True
            info["episode_stats"] = {"steps": float(self._t), "physics_unstable": 1.0, "success": 0.0}
            obs = {k: np.zeros(s.shape, np.float32) for k, s in self.observation_space.spaces.items()}
            return obs, 0.0, True, False, info
        ts = self.task.step(self.backend, parts)
        stop = "rearrange_stop" in parts and float(parts["rearrange_stop"][0]) > 0.0
        terminated = ts.terminated or stop
        truncated = not terminated and self._t >= self.cfg.max_steps
        reward = float(sum(ts.reward_terms.values()))
        for k, v in ts.reward_terms.items():
            self._return_terms[k] = self._return_terms.get(k, 0.0) + v
        info["reward_terms"] = ts.reward_terms
        info.update(ts.info)
        if terminated or truncated:
            info["episode_stats"] = {
                "steps": float(self._t),
                "success": float(ts.success),
                "stop_called": float(stop),
                "physics_unstable": 0.0,
                **{f"return/{k}": v for k, v in self._return_terms.items()},
            }
        return self._observe(), reward, terminated, truncated, info

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array":
            return self.backend.render_rgb()
        return None

    def close(self) -> None:
        self.backend.close()


@dataclass(frozen=True)
class RearrangeEnvFactory:
    """A picklable zero-argument env factory (what the VER engine's worker processes call)."""

    config: dict[str, Any] = field(default_factory=dict)
    """`EnvConfig` fields as plain data."""

    def __call__(self) -> RearrangeEnv:
        return RearrangeEnv(EnvConfig(**self.config))


def register() -> None:
    """Register `tpsrl/Rearrange-v0` with gymnasium (explicit, no import-time side effect)."""
    if "tpsrl/Rearrange-v0" not in gym.registry:
        gym.register("tpsrl/Rearrange-v0", entry_point="tpsrl.sim.env:RearrangeEnv")
