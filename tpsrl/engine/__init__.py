"""VER training engine: variable experience rollout, recurrent PPO, and its sync / NoVER baselines.

Domain-free: environments come in through a factory (gymnasium API, dict observations, Box actions).
Heavy modules (torch) are imported lazily so that environment worker processes stay light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tpsrl.engine.config import TrainConfig
    from tpsrl.engine.envs import EnvFactory, GymEnvFactory
    from tpsrl.engine.train import TrainResult, train

__all__ = ["EnvFactory", "GymEnvFactory", "TrainConfig", "TrainResult", "train"]

_LAZY = {
    "TrainConfig": "tpsrl.engine.config",
    "EnvFactory": "tpsrl.engine.envs",
    "GymEnvFactory": "tpsrl.engine.envs",
    "TrainResult": "tpsrl.engine.train",
    "train": "tpsrl.engine.train",
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'tpsrl.engine' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(_LAZY[name]), name)
