"""Checkpoints: written atomically (temporary file in the same directory, fsync, rename), holding the
model, optimizer, entropy coefficient, counters, config and every RNG state."""

from __future__ import annotations

import os
import random
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

LATEST = "latest.pt"


@dataclass
class Counters:
    """Progress of a run."""

    env_steps: int = 0
    updates: int = 0
    episodes: int = 0


def rng_state() -> dict[str, Any]:
    state: dict[str, Any] = {
        "python": random.getstate(),
        "numpy": np.random.get_state(),
        "torch": torch.get_rng_state(),
    }
    if torch.cuda.is_available():
        state["cuda"] = torch.cuda.get_rng_state_all()
    return state


def set_rng_state(state: dict[str, Any]) -> None:
    random.setstate(state["python"])
    np.random.set_state(state["numpy"])
    torch.set_rng_state(state["torch"])
    if "cuda" in state and torch.cuda.is_available():
        torch.cuda.set_rng_state_all(state["cuda"])


def atomic_save(obj: Any, path: Path) -> None:
    """`torch.save` to `path` so that a reader sees the old file or the new one, never a partial one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        torch.save(obj, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save(directory: Path, model: torch.nn.Module, learner_state: dict, counters: Counters, config: dict,
         keep: bool = False) -> Path:  # fmt: skip
    """Writes `directory/latest.pt` (and `update_NNNNNN.pt` if `keep`); returns the latest path."""
    payload = {
        "version": 1,
        "model": model.state_dict(),
        "learner": learner_state,
        "counters": asdict(counters),
        "config": config,
        "rng": rng_state(),
    }
    latest = directory / LATEST
    atomic_save(payload, latest)
    if keep:
        atomic_save(payload, directory / f"update_{counters.updates:06d}.pt")
    return latest


def load(path: Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    return torch.load(path, map_location=map_location, weights_only=False)
