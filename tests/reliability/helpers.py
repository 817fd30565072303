"""Environments and a training script for the fault-injection tests (numpy + gymnasium only, so that
worker processes start fast)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym

from tpsrl.engine.synthetic import PointTargetEnv

REPO = Path(__file__).resolve().parents[2]
TINY = [
    "engine.num_envs=2",
    "engine.rollout_steps=16",
    "engine.serial=true",
    "ppo.epochs=1",
    "ppo.num_minibatches=1",
    "policy=mlp",
    "policy.mlp_hidden=8",
    "run.wandb=disabled",
    "run.progress=false",
    "run.checkpoint_every=1000",
]
"""Hydra overrides of a tiny, fast Pendulum-v1 run (one update = 32 steps)."""


class FreezingEnv(PointTargetEnv):
    """Stops its own process with SIGSTOP (as `kill -STOP` would) on step `at`."""

    def __init__(self, at: int) -> None:
        super().__init__()
        self.at, self.steps = at, 0

    def step(self, action: Any) -> tuple:
        self.steps += 1
        if self.steps == self.at:
            os.kill(os.getpid(), signal.SIGSTOP)
        return super().step(action)


@dataclass(frozen=True)
class FreezingFactory:
    at: int = 5

    def __call__(self) -> gym.Env:
        return FreezingEnv(self.at)


@dataclass(frozen=True)
class PointFactory:
    def __call__(self) -> gym.Env:
        return PointTargetEnv()


def cli(
    args: list[str], env: dict[str, str] | None = None, cwd: Path = REPO, new_session: bool = False
) -> subprocess.Popen:
    """`tpsrl-train` in a subprocess (stdout and stderr piped, text); `new_session`: in a process group of
    its own (its pid is the group's), as a shell or `timeout` starts a command."""
    environ = {**os.environ, "PYTHONPATH": str(REPO), **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "skills.train", *args],
        cwd=cwd,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environ,
        start_new_session=new_session,
    )


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def wait_for(predicate: Any, proc: subprocess.Popen | None = None, poll_s: float = 0.2) -> None:
    """Polls until `predicate()` (pytest-timeout bounds the wait); fails if `proc` exits first."""
    while not predicate():
        if proc is not None and proc.poll() is not None:
            out, err = proc.communicate()
            raise AssertionError(f"process exited with {proc.returncode} first:\n{out}\n{err}")
        time.sleep(poll_s)


def metric_updates(run_dir: Path) -> list[int]:
    """Update numbers in `metrics.jsonl`, in file order (a line being written is skipped)."""
    path = run_dir / "metrics.jsonl"
    out = []
    for line in path.read_text().splitlines() if path.exists() else []:
        try:
            out.append(json.loads(line)["update"])
        except json.JSONDecodeError:
            continue
    return out


class SignalEnv(PointTargetEnv):
    """Sends `signum` to its own process on step `at` (in serial mode: the trainer, as `kill` would)."""

    def __init__(self, at: int, signum: int) -> None:
        super().__init__()
        self.at, self.signum, self.steps = at, signum, 0

    def step(self, action: Any) -> tuple:
        self.steps += 1
        if self.steps == self.at:
            os.kill(os.getpid(), self.signum)
        return super().step(action)


@dataclass(frozen=True)
class SignalFactory:
    at: int
    signum: int

    def __call__(self) -> gym.Env:
        return SignalEnv(self.at, self.signum)
