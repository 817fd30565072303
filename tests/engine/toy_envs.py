"""Tiny environments for the engine tests (gymnasium + numpy only, so worker processes start fast)."""

from __future__ import annotations

import os
import time
from typing import Any

import gymnasium as gym
import numpy as np


class CounterEnv(gym.Env):
    """obs t (steps since reset), reward t after the step: lets tests check step/reward alignment.
    Plain Box observation (the engine wraps it as {"obs": ...})."""

    def __init__(self, horizon: int = 1000) -> None:
        self.horizon = horizon
        self.observation_space = gym.spaces.Box(0.0, 1e6, (1,), np.float32)
        self.action_space = gym.spaces.Box(-1.0, 1.0, (1,), np.float32)
        self.t = 0

    def reset(self, *, seed: int | None = None, options: Any = None) -> tuple[np.ndarray, dict]:
        super().reset(seed=seed)
        self.t = 0
        return np.array([0.0], np.float32), {}

    def step(self, action: np.ndarray) -> tuple[np.ndarray, float, bool, bool, dict]:
        self.t += 1
        done = self.t >= self.horizon
        info: dict[str, Any] = {"reward_terms": {"count": float(self.t)}}
        if done:
            info["episode_stats"] = {"steps": float(self.t)}
        return np.array([self.t], np.float32), float(self.t), False, done, info


class CrashEnv(CounterEnv):
    """Raises on its 5th step."""

    def step(self, action: np.ndarray) -> tuple:
        if self.t == 4:
            raise RuntimeError("boom from CrashEnv")
        return super().step(action)


class DieEnv(CounterEnv):
    """The process exits without a word on the first step."""

    def step(self, action: np.ndarray) -> tuple:
        os._exit(3)


class HangEnv(CounterEnv):
    """Never answers a step (within a test's patience)."""

    def step(self, action: np.ndarray) -> tuple:
        time.sleep(60)
        return super().step(action)


def counter() -> gym.Env:
    return CounterEnv(horizon=3)


def counter7() -> gym.Env:
    return CounterEnv(horizon=7)


def crash() -> gym.Env:
    return CrashEnv()


def die() -> gym.Env:
    return DieEnv()


def hang() -> gym.Env:
    return HangEnv()


def bad_init() -> gym.Env:
    raise ValueError("cannot build this env")
