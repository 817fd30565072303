"""Synthetic environments for the engine's own tests and benchmark (numpy only, no torch, so that worker
processes stay light). Neither is registered with gymnasium; pass them as factories."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np


class PointTargetEnv(gym.Env):
    """1-D point-to-target: move a point towards a random target with actions in [-1, 1].

    Observation `{"delta": [target - pos], "pos": [pos]}`; reward terms `progress` (decrease of
    |target - pos|) and `effort` (-0.01 a^2); the episode is truncated after `horizon` steps and, if
    `terminate_on_success`, terminated once within 0.05 of the target. Episode statistics `success`
    (final distance < 0.1) and `final_distance`. A random policy returns about -0.3 and ends about 0.8
    from the target; a good one returns about +0.5 (the initial distance) and ends within 0.05."""

    def __init__(
        self, horizon: int = 16, step_size: float = 0.25, terminate_on_success: bool = False
    ) -> None:
        self.horizon, self.step_size, self.terminate_on_success = horizon, step_size, terminate_on_success
        box = gym.spaces.Box(-3.0, 3.0, (1,), np.float32)
        self.observation_space = gym.spaces.Dict({"delta": box, "pos": box})
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32)
        self._pos = self._target = 0.0
        self._t = 0

    def _obs(self) -> dict[str, np.ndarray]:
        return {
            "delta": np.array([self._target - self._pos], np.float32),
            "pos": np.array([self._pos], np.float32),
        }

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        self._pos, self._target, self._t = 0.0, float(self.np_random.uniform(-1.0, 1.0)), 0
        self._returns: dict[str, float] = {}
        return self._obs(), {}

    def step(self, action: np.ndarray) -> tuple[Any, float, bool, bool, dict]:
        a = float(np.clip(action[0], -1.0, 1.0))
        before = abs(self._target - self._pos)
        self._pos = float(np.clip(self._pos + self.step_size * a, -2.0, 2.0))
        self._t += 1
        dist = abs(self._target - self._pos)
        terms = {"progress": before - dist, "effort": -0.01 * a * a}
        terminated = self.terminate_on_success and dist < 0.05
        truncated = not terminated and self._t >= self.horizon
        for k, v in terms.items():
            self._returns[k] = self._returns.get(k, 0.0) + v
        info: dict[str, Any] = {"reward_terms": terms}
        if terminated or truncated:
            info["episode_stats"] = {
                "success": float(dist < 0.1),
                "final_distance": dist,
                **{f"return/{k}": v for k, v in self._returns.items()},
            }
        return self._obs(), sum(terms.values()), terminated, truncated, info


class SleepyEnv(gym.Env):
    """Benchmark env: each step sleeps `mean_step_s` times a uniform jitter in [1 - jitter, 1 + jitter]
    (mean preserved), so wall time, not CPU, bounds its throughput. Small vector observation."""

    def __init__(
        self, mean_step_s: float, jitter: float = 0.5, obs_dim: int = 8, act_dim: int = 2, horizon: int = 200
    ) -> None:
        self.mean_step_s, self.jitter, self.horizon = mean_step_s, jitter, horizon
        self.observation_space = gym.spaces.Dict({"state": gym.spaces.Box(-1.0, 1.0, (obs_dim,), np.float32)})
        self.action_space = gym.spaces.Box(-1.0, 1.0, (act_dim,), np.float32)
        self._t = 0

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        self._t = 0
        return {
            "state": self.np_random.uniform(-1, 1, self.observation_space["state"].shape).astype(np.float32)
        }, {}

    def step(self, action: np.ndarray) -> tuple[Any, float, bool, bool, dict]:
        time.sleep(self.mean_step_s * float(self.np_random.uniform(1.0 - self.jitter, 1.0 + self.jitter)))
        self._t += 1
        obs = {
            "state": self.np_random.uniform(-1, 1, self.observation_space["state"].shape).astype(np.float32)
        }
        reward = -float(np.mean(np.square(action)))
        return obs, reward, False, self._t >= self.horizon, {}


@dataclass(frozen=True)
class PointTargetFactory:
    """Picklable factory for `PointTargetEnv`."""

    horizon: int = 16
    step_size: float = 0.25
    terminate_on_success: bool = False

    def __call__(self) -> gym.Env:
        return PointTargetEnv(self.horizon, self.step_size, self.terminate_on_success)


@dataclass(frozen=True)
class SleepyFactory:
    """Picklable factory for `SleepyEnv`; the benchmark passes one per environment (heterogeneous)."""

    mean_step_s: float
    jitter: float = 0.5

    def __call__(self) -> gym.Env:
        return SleepyEnv(self.mean_step_s, self.jitter)
