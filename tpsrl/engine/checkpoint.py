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


def save(
    directory: Path,
    model: torch.nn.Module,
    learner_state: dict,
    counters: Counters,
    config: dict,
    *,
    spaces: dict[str, Any],
    meta: dict[str, Any],
    provenance: list[dict[str, Any]] | None = None,
    keep: bool = False,
) -> Path:
    """Writes `directory/latest.pt` (and `update_NNNNNN.pt` if `keep`); returns the latest path.

    Besides the training state, a checkpoint carries what rebuilds and runs its policy elsewhere: the
    config (its `policy` section), the observation and action spaces (`envs.space_to_dict`), and the
    caller's `meta` (opaque to the engine; the skills store their name and task config there), and the
    run's `provenance` (one entry per start or resume: the code's git commit, time, steps so far).
    """
    payload = {
        "version": 2,
        "model": model.state_dict(),
        "learner": learner_state,
        "counters": asdict(counters),
        "config": config,
        "spaces": spaces,
        "meta": meta,
        "provenance": list(provenance or []),
        "rng": rng_state(),
    }
    latest = directory / LATEST
    atomic_save(payload, latest)
    if keep:
        atomic_save(payload, directory / f"update_{counters.updates:06d}.pt")
    return latest


def trained_env_steps(data: dict[str, Any]) -> int:
    """Env steps behind a checkpoint's policy: its run's own plus, for a run started with
    `run.init_from`, those behind the policy it started from (recorded in its provenance)."""
    own = int(data.get("counters", {}).get("env_steps", 0))
    return own + sum(int(p.get("init_env_steps", 0)) for p in data.get("provenance", []))


def export_policy(checkpoint: dict[str, Any], path: Path) -> Path:
    """Writes the policy alone (weights, policy config, spaces, meta, counters; no optimizer, no RNG):
    the small file that is shipped and loaded by `load_policy`."""
    keys = ("model", "spaces", "meta", "counters")
    atomic_save(
        {
            "version": 2,
            "policy_only": True,
            **{k: checkpoint[k] for k in keys},
            "provenance": checkpoint.get("provenance", []),
            "config": {"policy": checkpoint["config"]["policy"]},
        },
        path,
    )
    return path


def curve_behind(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The training curve behind a policy file: its own `curve` when it is a shipped skill, else the one
    its latest provenance entry records (`init_curve`: the policy a run started from, or a file derived
    from a shipped one); each such curve already holds the ones before it."""
    if data.get("curve"):
        return list(data["curve"])
    for entry in reversed(data.get("provenance", [])):
        if entry.get("init_curve"):
            return list(entry["init_curve"])
    return []


VERSIONED_PACKAGES = ("torch", "numpy", "mujoco", "gymnasium-robotics")


def package_versions() -> dict[str, str | None]:
    """Python's version and those of the packages a run's or an evaluation's numbers hang on beside the code
    (None: not installed). `pyproject.toml` gives ranges, so two installs of one commit can differ (one
    held-out episode of the shipped place changed outcome between two sessions' fresh installs, whose
    versions were not recorded then)."""
    import platform
    from importlib import metadata

    out: dict[str, str | None] = {"python": platform.python_version()}
    for name in VERSIONED_PACKAGES:
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = None
    return out


def code_version(cwd: Path | None = None) -> dict[str, Any]:
    """Where this process's code comes from: the git commit of the working tree that holds this file (and
    whether it has uncommitted changes), or None outside a git checkout, and `package_versions()`. Best
    effort, never raises."""
    import subprocess
    import time

    here = cwd or Path(__file__).resolve().parent
    out: dict[str, Any] = {
        "git_commit": None,
        "dirty": None,
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "packages": package_versions(),
    }
    try:
        run = lambda *a: subprocess.run(["git", *a], cwd=here, capture_output=True, text=True, timeout=5)  # noqa: E731
        head = run("rev-parse", "HEAD")
        if head.returncode == 0:
            out["git_commit"] = head.stdout.strip()
            out["dirty"] = bool(run("status", "--porcelain", "--untracked-files=no").stdout.strip())
    except (OSError, subprocess.SubprocessError):
        pass
    return out


class CheckpointError(ValueError):
    """A checkpoint file that is missing, unreadable or lacks what is asked of it."""


def read(path: str | Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    """Loads a checkpoint file or the latest one of a run directory, with errors that name the path."""
    path = Path(path)
    if path.is_dir():
        path = path / "checkpoints" / LATEST if (path / "checkpoints").is_dir() else path / LATEST
    if not path.is_file():
        raise CheckpointError(f"checkpoint {path} does not exist; pass a run directory or a .pt file")
    try:
        data = load(path, map_location)
    except Exception as e:
        raise CheckpointError(f"checkpoint {path} cannot be read: {type(e).__name__}: {e}") from None
    if not isinstance(data, dict) or "model" not in data:
        raise CheckpointError(f"checkpoint {path} holds no policy ('model' missing)")
    if "spaces" not in data:
        raise CheckpointError(
            f"checkpoint {path} (version {data.get('version', 1)}) does not record its spaces; it was written "
            "before version 2 and its policy cannot be rebuilt on its own"
        )
    return data


def load(path: Path, map_location: str | torch.device = "cpu") -> dict[str, Any]:
    return torch.load(path, map_location=map_location, weights_only=False)
