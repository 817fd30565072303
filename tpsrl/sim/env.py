"""`RearrangeEnv`: a `gymnasium.Env` over any simulator backend, with HAB action/observation spaces.

Episodes, rewards, success and failures come from a pluggable `Task` (`tpsrl.sim.task`): raw reward
terms are scaled here in one place, summed into the reward and reported per term
(`info["reward_terms"]`; per episode `episode_stats["return/<term>"]`, the only per-episode sum). The
default task samples random episodes and gives no reward (demo, simulator benchmark). Skill tasks
(`skills.registry`) plug in through the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import gymnasium as gym
import numpy as np

from .backend import ARM_SPEEDS, GRASPS, DepthSettings, SimBackend, make_backend
from .episode import EpisodeSpec, EpisodeSpecError, PlacementError
from .sensors import ACTION_SIZES, ACTIONS, ARM_ACTIONS, SENSORS, SensorContext, goal_joint
from .task import FreeTask, FreeTaskConfig, Task, TaskStep, make_task, scale_terms

__all__ = ["EnvConfig", "RearrangeEnv", "RearrangeEnvFactory", "Task", "TaskStep", "FreeTask", "register"]

ALL_OBSERVATIONS = tuple(SENSORS)
MAX_RESAMPLES = 20
"""Sampled episodes rejected in a row (bodies overlapping at the start) before `reset` gives up."""


class ActionError(ValueError):
    """An action that is not a vector of the action space's size of finite numbers."""


@dataclass
class EnvConfig:
    """Configuration of `RearrangeEnv`."""

    backend: str = "mujoco"
    """Simulator backend name (see tpsrl.sim.backend.BACKENDS)."""
    actions: tuple[str, ...] = tuple(ACTIONS)
    """Action components in the flat action vector, in HAB order. `arm_ee_action` (3-D end-effector
    displacement, HAB's ArmEEAction) may replace `arm_action` (7 joint deltas)."""
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
    grip_release: float = 0.0
    """grip_action below -grip_release releases a grasp (HAB: 0); values in between keep the grip."""
    grasp: str = "contact"
    """How suction holds an object: "contact" (where the cup touched it) or "centre" (habitat-lab's grasp:
    its centre on the gripper; `tpsrl.sim.backend.GRASPS`)."""
    arm_speed: str = "capped"
    """How fast the arm's joints follow full arm actions: "capped" (0.35-0.97 of HAB's commanded rate, what
    every shipped skill was trained with) or "fast" (0.80-0.98, wrist roll 0.35;
    `tpsrl.sim.backend.ARM_SPEEDS`)."""
    # The free task's episode choice, kept here so plain `EnvConfig(...)` configs still work; a
    # task built from the registry carries these in its own config instead.
    clutter: tuple[int, int] = (0, 10)
    """Free task: inclusive range of clutter objects per sampled episode."""
    layouts: tuple[int, ...] | None = None
    """Free task: layouts to sample from (None: all)."""
    episodes_file: str | None = None
    """Free task: JSON file of fixed episodes, cycled in order, instead of sampling."""

    def __post_init__(self) -> None:
        self.actions = tuple(self.actions)
        self.observations = tuple(self.observations)
        self.clutter = tuple(self.clutter)  # type: ignore[assignment]
        if isinstance(self.depth, dict):
            self.depth = DepthSettings(**self.depth)
        for a in self.actions:
            if a not in ACTION_SIZES:
                raise ValueError(f"env.actions: unknown action {a!r}; accepted: {list(ACTION_SIZES)}")
        if len(set(self.actions)) != len(self.actions) or sum(a in ARM_ACTIONS for a in self.actions) > 1:
            raise ValueError(
                f"env.actions: {list(self.actions)} repeats a component or has both arm controls {ARM_ACTIONS}"
            )
        for o in self.observations:
            if o not in SENSORS:
                raise ValueError(f"env.observations: unknown observation {o!r}; accepted: {list(SENSORS)}")
        if self.max_steps < 1:
            raise ValueError(f"env.max_steps: {self.max_steps} must be >= 1")
        if not self.grip_release >= 0.0:
            raise ValueError(f"env.grip_release: {self.grip_release} must be >= 0")
        if self.grasp not in GRASPS:
            raise ValueError(f"env.grasp: {self.grasp!r} not accepted; use one of {list(GRASPS)}")
        if self.arm_speed not in ARM_SPEEDS:
            raise ValueError(f"env.arm_speed: {self.arm_speed!r} not accepted; use one of {list(ARM_SPEEDS)}")
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


class RearrangeEnv(gym.Env):
    """HAB-style rearrangement env: dict observations, one flat Box action in [-1, 1]."""

    metadata = {"render_modes": ["rgb_array"], "render_fps": 30}

    def __init__(
        self, config: EnvConfig | dict | None = None, task: Task | None = None, render_mode: str | None = None
    ) -> None:
        if config is None and task is not None:
            config = task.env_config()
        self.cfg = config if isinstance(config, EnvConfig) else EnvConfig(**(config or {}))
        self.task: Task = task or FreeTask(_free_config(self.cfg))
        self.render_mode = render_mode
        self.backend: SimBackend = make_backend(
            self.cfg.backend, depth=self.cfg.depth, grasp=self.cfg.grasp, arm_speed=self.cfg.arm_speed
        )
        self._slices: dict[str, slice] = {}
        start = 0
        for a in self.cfg.active_actions:
            self._slices[a] = slice(start, start + ACTION_SIZES[a])
            start += ACTION_SIZES[a]
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
        self._scales = dict(self.task.reward_scales)
        self._causes = _failure_causes(self.task, self.cfg)

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        spec = (options or {}).get("episode")
        if spec is None:
            spec, resampled = self._reset_sampled()
        else:
            spec, resampled = EpisodeSpec.from_dict(spec) if isinstance(spec, dict) else spec, 0
            self.backend.reset(spec)
        self.task.reset(self.backend, spec)
        handles = [t.handle for t in spec.targets]
        goals = np.array([t.goal for t in spec.targets], dtype=np.float64).reshape(-1, 3)
        nav = None if spec.nav_goal is None else np.asarray(spec.nav_goal)
        joint = goal_joint(spec.targets[0].goal_receptacle) if spec.targets else None
        self._ctx = SensorContext(
            handles,
            goals,
            nav,
            self.cfg.depth.max_depth,
            self.cfg.n_targets,
            spec.marker,
            joint,
            self.backend.articulation(joint) if joint else 0.0,
        )
        self._t = 0
        self._return_terms = {}
        info = {"episode_id": spec.episode_id, "layout": spec.layout}
        if resampled:
            info["resampled"] = resampled
        return self._observe(), info

    def _reset_sampled(self) -> tuple[EpisodeSpec, int]:
        """Samples episodes until the backend accepts one: a sampler may rarely place two bodies
        overlapping (`PlacementError`), which must not stop a long training run. Returns it and the
        number rejected; a given episode (`options["episode"]`) is never replaced."""
        for rejected in range(MAX_RESAMPLES):
            spec = self.task.episodes.sample(self.backend, self._rng)
            try:
                self.backend.reset(spec)
                return spec, rejected
            except PlacementError as e:
                last = e
        raise EpisodeSpecError(
            f"{MAX_RESAMPLES} sampled episodes in a row rejected at reset; the last: {last}"
        )

    def seed_sampler(self, seed: int) -> None:
        """Seed the episode sampler without resetting (the next `reset()` samples from it)."""
        self._rng = np.random.default_rng(seed)

    def _observe(self) -> dict[str, np.ndarray]:
        return {k: SENSORS[k].read(self.backend, self._ctx) for k in self.cfg.observations}

    def _action(self, action: Any) -> np.ndarray:
        """`action` as a flat float array; anything else raises `ActionError` saying what is accepted."""
        accepted = f"{self.action_space.shape[0]} finite values for {list(self._slices)}"
        if isinstance(action, str | bytes | dict):
            raise ActionError(f"action: expected {accepted}, got {type(action).__name__} {action!r:.80}")
        try:
            a = np.asarray(action, dtype=np.float64).reshape(-1)
        except (TypeError, ValueError):
            raise ActionError(
                f"action: expected {accepted}, got {type(action).__name__} {action!r:.80}"
            ) from None
        if a.shape != self.action_space.shape or not np.isfinite(a).all():
            raise ActionError(f"action: expected {accepted}, got {action!r:.200}")
        return a

    def step(self, action: np.ndarray) -> tuple[dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        if self._ctx is None:
            raise gym.error.ResetNeeded("RearrangeEnv.step() called before reset(); call env.reset() first")
        a = self._action(action)
        parts = {k: a[s] for k, s in self._slices.items()}
        arm = parts.get("arm_action")
        if "arm_ee_action" in parts:
            arm = self.backend.ee_arm_action(parts["arm_ee_action"])
        self.backend.step(arm, self._grip_command(parts), parts.get("base_velocity"))
        self._t += 1
        info: dict[str, Any] = {
            "force_instant": self.backend.force_instant,
            "arm_force": self.backend.arm_force,
            "force_accum": self.backend.force_accum,
        }
        if self.backend.unstable:
            info["physics_unstable"] = True
            info["episode_stats"] = self._episode_stats(success=False, stop=False, failure="unstable")
            info["episode_stats"]["physics_unstable"] = 1.0
            obs = {k: np.zeros(s.shape, np.float32) for k, s in self.observation_space.spaces.items()}
            return obs, 0.0, True, False, info
        ts = self.task.step(self.backend, parts)
        stop = "rearrange_stop" in parts and float(parts["rearrange_stop"][0]) > 0.0
        terminated = ts.terminated or stop
        truncated = not terminated and self._t >= self.cfg.max_steps
        terms = scale_terms(ts.reward_terms, self._scales)
        for k, v in terms.items():
            self._return_terms[k] = self._return_terms.get(k, 0.0) + v
        info["reward_terms"] = terms
        info.update(ts.info)
        if terminated or truncated:
            failure = ts.failure
            if failure is None and not ts.success:
                failure = "timeout" if truncated else "stop"
            info["episode_stats"] = self._episode_stats(ts.success, stop, failure)
        return self._observe(), float(sum(terms.values())), terminated, truncated, info

    def _grip_command(self, parts: dict[str, np.ndarray]) -> float | None:
        """The backend's grip command: >= 0 grasp, < 0 release, None (keep) inside the release band."""
        grip = parts.get("grip_action")
        if grip is None:
            return None
        g = float(grip[0])
        return None if -self.cfg.grip_release <= g < 0.0 else g

    def _episode_stats(self, success: bool, stop: bool, failure: str | None) -> dict[str, float]:
        """The end-of-episode record: steps, success, every failure cause as 0/1, per-term returns."""
        return {
            "steps": float(self._t),
            "success": float(success),
            "stop_called": float(stop),
            "physics_unstable": 0.0,
            **{f"fail/{c}": float(c == failure) for c in self._causes},
            **{f"return/{k}": self._return_terms.get(k, 0.0) for k in self._scales},
        }

    def render(self) -> np.ndarray | None:
        if self.render_mode == "rgb_array":
            return self.backend.render_rgb()
        return None

    def close(self) -> None:
        self.backend.close()


def _free_config(cfg: EnvConfig) -> FreeTaskConfig:
    return FreeTaskConfig(cfg.n_targets, cfg.clutter, cfg.layouts, cfg.episodes_file, cfg.max_steps)


def _failure_causes(task: Task, cfg: EnvConfig) -> tuple[str, ...]:
    """Every cause an episode of `task` can fail with (each is logged as fail/<cause>, 0 or 1)."""
    extra = ("timeout", "unstable") + (("stop",) if "rearrange_stop" in cfg.active_actions else ())
    return tuple(dict.fromkeys((*task.failure_causes, *extra)))


@dataclass(frozen=True)
class RearrangeEnvFactory:
    """A picklable zero-argument env factory (what the VER engine's worker processes call).

    Without `task`, builds the free task over `config` (`EnvConfig` fields). With `task`, builds the
    registered task from `task_config` (its config fields as plain data) in the registry `registry`
    ("module:attribute"; skills use "skills.registry:TASKS"); `config` then overrides `EnvConfig` fields
    of the task's own env config.
    """

    config: dict[str, Any] = field(default_factory=dict)
    """`EnvConfig` fields as plain data."""
    task: str | None = None
    """Registered task name; None: the free task."""
    task_config: dict[str, Any] = field(default_factory=dict)
    """The task's config fields as plain data."""
    registry: str = "tpsrl.sim.task:TASKS"
    """Where the task name is looked up, as "module:attribute"."""

    def __call__(self) -> RearrangeEnv:
        if self.task is None:
            return RearrangeEnv(EnvConfig(**self.config))
        task = make_task(self.task, self.task_config, self.registry)
        cfg = task.env_config()
        if self.config:
            cfg = EnvConfig(**{**_fields(cfg), **self.config})
        return RearrangeEnv(cfg, task=task)


def _fields(cfg: EnvConfig) -> dict[str, Any]:
    return {f: getattr(cfg, f) for f in cfg.__dataclass_fields__}


def register() -> None:
    """Register `tpsrl/Rearrange-v0` with gymnasium (explicit, no import-time side effect)."""
    if "tpsrl/Rearrange-v0" not in gym.registry:
        gym.register("tpsrl/Rearrange-v0", entry_point="tpsrl.sim.env:RearrangeEnv")
