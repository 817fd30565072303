"""Shared helpers for the engine tests: tiny configs."""

from __future__ import annotations

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
