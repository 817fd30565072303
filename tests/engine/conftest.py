"""Shared helpers for the engine tests: tiny configs, a counter env and a pool that delays replies."""

from __future__ import annotations

import collections
from typing import Any

import pytest
import torch

from tpsrl.engine.collector import EngineConfig
from tpsrl.engine.config import RunConfig, TrainConfig
from tpsrl.engine.policy import PolicyConfig
from tpsrl.engine.ppo import PPOConfig


@pytest.fixture(autouse=True)
def _one_thread() -> None:
    torch.set_num_threads(1)


class LaggyPool:
    """Wraps a SerialPool and holds the replies of some environments for a number of polls, to mimic
    slow environments deterministically (so steps are in flight when a rollout ends)."""

    def __init__(self, inner: Any, lag: dict[int, int]) -> None:
        self.inner, self.lag = inner, lag
        self.num_envs, self.views = inner.num_envs, inner.views
        self.held: collections.deque[list[Any]] = collections.deque()

    def send(self, index: int, message: bytes) -> None:
        self.inner.send(index, message)
        for env, reply in self.inner.poll():
            self.held.append([env, reply, self.lag.get(env, 0)])

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        while True:
            out = [(e, r) for e, r, wait in self.held if wait <= 0]
            self.held = collections.deque([e, r, wait - 1] for e, r, wait in self.held if wait > 0)
            if out or timeout is not None or not self.held:
                return out

    def close(self) -> None:
        self.inner.close()


def tiny_config(tmp_path: Any, mode: str = "ver", serial: bool = True, **run: Any) -> TrainConfig:
    """Small, fast settings for the point-target smoke tests."""
    return TrainConfig(
        engine=EngineConfig(mode=mode, num_envs=4, rollout_steps=32, serial=serial, step_timeout_s=30.0),
        ppo=PPOConfig(lr=2e-3, epochs=4, num_minibatches=2),
        policy=PolicyConfig(hidden_size=32, mlp_hidden=32, init_log_std=-1.0),
        run=RunConfig(
            **{
                "dir": str(tmp_path / "run"),
                "total_steps": 12_800,
                "wandb": "disabled",
                "progress": False,
                **run,
            }
        ),  # fmt: skip
    )
