"""`tpsrl-bench learn`: does the engine learn as well as a reference PPO? tpsrl (VER) against
Stable-Baselines3 PPO with its defaults, on standard gymnasium tasks, at the same env-step budget.

Every run trains from scratch with one seed, then evaluates its final policy deterministically on the
same 10 evaluation episodes (seeds 10_000 + k) for both libraries; the table prints the mean and standard
deviation over seeds of that final return, and the wall-clock of training. Both libraries get one torch
thread; tpsrl's collection config (serial or worker processes) is part of what it is measured on.

    tpsrl-bench learn --quick            # one task, one seed (< 15 min on 2 cores)
    tpsrl-bench learn --json             # the full table (about two hours on 2 cores)

Stable-Baselines3 is benchmark-only: `pip install -e '.[bench]'`.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch

from tpsrl.engine.config import from_dict
from tpsrl.engine.inference import load_policy

EVAL_EPISODES = 10
EVAL_SEED = 10_000


@dataclass(frozen=True)
class Task:
    """One benchmark task: a gymnasium id and its env-step budget."""

    env_id: str
    steps: int
    quick_steps: int


TASKS: dict[str, Task] = {
    "Pendulum-v1": Task("Pendulum-v1", 200_000, 100_000),
    "HalfCheetah-v5": Task("HalfCheetah-v5", 300_000, 150_000),
    "Hopper-v5": Task("Hopper-v5", 300_000, 150_000),
}
QUICK_TASK = "Pendulum-v1"

# tpsrl's settings for these tasks: the shipped defaults plus the `policy=mlp` preset (the same values
# as configs/policy/mlp.yaml), 8 environments x 128 steps per rollout, collected in-process (`serial`:
# the same ver loop without worker processes, the fastest choice for 0.1 ms environments on 2 cores).
TPSRL_SETTINGS: dict[str, Any] = {
    "engine": {"mode": "ver", "num_envs": 8, "rollout_steps": 128, "serial": True},
    "policy": {
        "kind": "mlp",
        "mlp_hidden": 64,
        "mlp_layers": 2,
        "activation": "tanh",
        "separate_critic": True,
    },
    "ppo": {},
}


def evaluate(
    act: Callable[[Any], np.ndarray], env_id: str, on_reset: Callable[[], None] = lambda: None
) -> float:
    """Mean undiscounted return of a deterministic policy over the fixed evaluation episodes
    (`on_reset` clears a recurrent policy's memory before each)."""
    env = gym.make(env_id)
    returns = []
    for k in range(EVAL_EPISODES):
        on_reset()
        obs, _ = env.reset(seed=EVAL_SEED + k)
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _ = env.step(act(obs))
            total += float(reward)
            done = terminated or truncated
        returns.append(total)
    env.close()
    return float(np.mean(returns))


def run_tpsrl(task: Task, steps: int, seed: int, overrides: dict[str, Any]) -> dict[str, float]:
    """Trains tpsrl on `task` for `steps` env steps; returns its final return and training seconds."""
    from tpsrl.engine.train import train

    with tempfile.TemporaryDirectory(prefix="tpsrl-learn-") as tmp:
        settings = {k: {**v, **overrides.get(k, {})} for k, v in TPSRL_SETTINGS.items()}
        cfg = from_dict(
            {
                **settings,
                "env": {"id": task.env_id},
                "run": {
                    "dir": str(Path(tmp) / "run"),
                    "total_steps": steps,
                    "seed": seed,
                    "wandb": "disabled",
                    "progress": False,
                    "torch_threads": 1,
                    "checkpoint_every": 10_000,
                },
            }
        )
        t0 = time.perf_counter()
        result = train(cfg)
        seconds = time.perf_counter() - t0
        runner, _ = load_policy(result.run_dir)
    ret = evaluate(runner.act, task.env_id, on_reset=runner.reset)
    return {"return": ret, "seconds": seconds}


def run_sb3(task: Task, steps: int, seed: int) -> dict[str, float]:
    """Stable-Baselines3 PPO with its defaults (MlpPolicy) on `task`."""
    try:
        from stable_baselines3 import PPO
    except ImportError as e:
        raise SystemExit("tpsrl-bench learn: Stable-Baselines3 is missing: pip install -e '.[bench]'") from e
    model = PPO("MlpPolicy", task.env_id, seed=seed, device="cpu", verbose=0)
    t0 = time.perf_counter()
    model.learn(total_timesteps=steps)
    seconds = time.perf_counter() - t0
    ret = evaluate(lambda obs: model.predict(obs, deterministic=True)[0], task.env_id)
    return {"return": ret, "seconds": seconds}


def _finished_runs(path: Path | None) -> dict[str, dict[str, float]]:
    """Runs recorded in a `--results` file, keyed by their (task, lib, seed, steps) as JSON."""
    if path is None or not path.exists():
        return {}
    out: dict[str, dict[str, float]] = {}
    for n, line in enumerate(path.read_text().splitlines(), 1):
        try:
            row = json.loads(line)
            key = {k: row[k] for k in ("task", "lib", "seed", "steps")}
            out[json.dumps(key, sort_keys=True)] = {
                "return": float(row["return"]),
                "seconds": float(row["seconds"]),
            }
        except (ValueError, KeyError, TypeError) as e:
            raise SystemExit(
                f"tpsrl-bench learn: --results {path} line {n} is not a run record ({e}): {line[:80]!r}"
            ) from None
    return out


def _mean_std(xs: list[float]) -> tuple[float, float]:
    return statistics.fmean(xs), (statistics.stdev(xs) if len(xs) > 1 else 0.0)


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tpsrl-bench learn", description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_TASK} only, one seed")
    parser.add_argument("--tasks", nargs="*", default=None, help=f"subset of {list(TASKS)}")
    parser.add_argument("--seeds", type=int, default=None, help="seeds per task (default 3; quick 1)")
    parser.add_argument("--steps", type=int, default=None, help="env steps per run (default: per task)")
    parser.add_argument("--only", choices=("tpsrl", "sb3"), default=None, help="run one library")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    parser.add_argument(
        "--results",
        type=Path,
        default=None,
        help="JSONL file of finished runs: each run is appended as it ends, and runs already in it (same "
        "task, library, seed, steps) are not run again, so a long benchmark can stop and continue",
    )
    args = parser.parse_args(argv)
    names = args.tasks or ([QUICK_TASK] if args.quick else list(TASKS))
    for name in names:
        if name not in TASKS:
            parser.error(f"--tasks: unknown task {name!r}; known: {list(TASKS)}")
    seeds = args.seeds or (1 if args.quick else 3)
    torch.set_num_threads(1)
    out: dict[str, Any] = {"tasks": {}}
    print(f"{'task':16} {'lib':6} {'seed':>4} {'steps':>8} {'return':>10} {'seconds':>8}", flush=True)
    for name in names:
        task = TASKS[name]
        steps = args.steps or (task.quick_steps if args.quick else task.steps)
        res: dict[str, list[dict[str, float]]] = {"tpsrl": [], "sb3": []}
        for seed in range(seeds):
            for lib in ("tpsrl", "sb3"):
                if args.only not in (None, lib):
                    continue
                key = {"task": name, "lib": lib, "seed": seed, "steps": steps}
                # read before every run: another process may be filling the same file (e.g. other seeds)
                r = _finished_runs(args.results).get(json.dumps(key, sort_keys=True))
                if r is None:
                    r = run_tpsrl(task, steps, seed, {}) if lib == "tpsrl" else run_sb3(task, steps, seed)
                    if args.results is not None:
                        with args.results.open("a") as f:
                            f.write(json.dumps({**key, **r}) + "\n")
                res[lib].append(r)
                print(
                    f"{name:16} {lib:6} {seed:>4} {steps:>8} {r['return']:>10.1f} {r['seconds']:>8.1f}",
                    flush=True,
                )
        row: dict[str, Any] = {"env_steps": steps, "seeds": seeds}
        for lib, runs in res.items():
            if runs:
                row[f"{lib}_return_mean"], row[f"{lib}_return_std"] = _mean_std([r["return"] for r in runs])
                row[f"{lib}_seconds"] = statistics.fmean(r["seconds"] for r in runs)
        out["tasks"][name] = row
    print("\nsummary (mean +- std over seeds of the final deterministic return; mean training seconds)")
    for name, row in out["tasks"].items():
        parts = [f"{name:16}"]
        for lib in ("tpsrl", "sb3"):
            if f"{lib}_return_mean" in row:
                parts.append(
                    f"{lib} {row[f'{lib}_return_mean']:8.1f} +- {row[f'{lib}_return_std']:6.1f} "
                    f"in {row[f'{lib}_seconds']:6.0f} s"
                )
        print("  ".join(parts))
    if args.json:
        print(json.dumps(out))
    return 0
