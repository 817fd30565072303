"""`tpsrl-bench engine`: collection throughput of sync, nover and ver on a heterogeneous synthetic env.

N = 16 environments whose mean step time is drawn log-uniform in [1, 20] ms (fixed seed, the same draw
for every mode), each step sleeping that mean times a uniform jitter in [0.5, 1.5]; small observations
and policy. Every mode runs the real training loop (`train`) with the same config apart from
`engine.mode`; the first update (worker start-up) is not timed. Reported per mode:

- sps: env steps / (collection + learning) time, the honest end-to-end figure;
- collect sps: env steps / collection time only. For ver this benefits from steps in flight that
  finish while the learner runs (the workers keep stepping then), which is the point of VER.

The ideal limit is sum_i 1 / mean_step_time_i (every env always busy, zero overhead).
Optional: Sample Factory on the same env and step times, if it is importable by `--sf-python`.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tpsrl.engine import shm
from tpsrl.engine.collector import EngineConfig
from tpsrl.engine.config import RunConfig, TrainConfig
from tpsrl.engine.envs import EnvFactory, probe_spaces
from tpsrl.engine.policy import PolicyConfig
from tpsrl.engine.ppo import PPOConfig
from tpsrl.engine.synthetic import SleepyFactory
from tpsrl.engine.train import train
from tpsrl.engine.workers import Command, ProcessPool, command

BENCH_MODES = ("sync", "nover", "ver", "ver_eager")


def step_times(num_envs: int, seed: int, low_ms: float = 1.0, high_ms: float = 20.0) -> list[float]:
    """Mean step time of each env in seconds, log-uniform in [low_ms, high_ms]."""
    rng = np.random.default_rng(seed)
    return [float(x) for x in np.exp(rng.uniform(math.log(low_ms), math.log(high_ms), num_envs)) / 1000.0]


def run_mode(
    mode: str, means: list[float], rollout_steps: int, updates: int, seed: int, **engine: Any
) -> dict[str, float]:
    """Trains `updates + 1` updates in `mode` (extra `EngineConfig` fields in `engine`); the first is not timed."""
    n = len(means)
    with tempfile.TemporaryDirectory(prefix="tpsrl-bench-") as tmp:
        cfg = TrainConfig(
            engine=EngineConfig(mode=mode, num_envs=n, rollout_steps=rollout_steps, **engine),
            ppo=PPOConfig(epochs=2, num_minibatches=2, max_sequence_length=rollout_steps),
            policy=PolicyConfig(hidden_size=32, mlp_hidden=32),
            run=RunConfig(
                dir=str(Path(tmp) / "run"),
                total_steps=(updates + 1) * rollout_steps * n,
                seed=seed,
                wandb="disabled",
                progress=False,
                checkpoint_every=10**9,
            ),
        )
        result = train(cfg, [SleepyFactory(m) for m in means])
    timed = result.history[1:]
    steps = rollout_steps * n * len(timed)
    collect = sum(m["time/collect_s"] for m in timed)
    learn = sum(m["time/learn_s"] for m in timed)
    return {
        "sps": steps / (collect + learn),
        "sps_collect": steps / collect,
        "learn_s_per_update": learn / len(timed),
        "inference_batch": steps / sum(m["collect/inference_calls"] for m in timed),
        "carried": sum(m["collect/carried_out"] for m in timed) / len(timed),
    }


def run_pool_only(factories: list[EnvFactory], seconds: float, seed: int, envs_per_worker: int = 1) -> float:
    """Steps/s of the same worker pool with no policy: each reply is answered at once with a zero action.

    This is the ceiling the machine's process wake-ups and pipes allow (no inference, no buffer); the
    collection figures of the three modes are read against it as well as against the ideal limit.
    """
    obs_space, action_space = probe_spaces(factories[0])
    pool = ProcessPool(
        factories, shm.step_spec(obs_space, action_space), "forkserver", 60.0, envs_per_worker=envs_per_worker
    )
    try:
        n = len(factories)
        for e in range(n):
            pool.send(e, command(Command.RESET, seed=seed + e))
        started: set[int] = set()
        while len(started) < n:
            started.update(e for e, _ in pool.poll())
        pool.views["action"][:] = 0.0
        pool.step(list(range(n)))
        steps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            envs = [e for e, _ in pool.poll()]
            steps += len(envs)
            pool.step(envs)
        return steps / (time.perf_counter() - t0)
    finally:
        pool.close()


def run_sample_factory(
    python: str,
    means: list[float],
    rollout_steps: int,
    seconds: float,
    envs_per_worker: int = 1,
    splits: int = 1,
) -> dict[str, Any]:
    """Runs `bench_sf.py` under `python` (which has sample-factory) for `seconds` after its first FPS
    reading, then stops its process group; returns the mean of its 10-second FPS readings after the first."""
    root = Path(__file__).resolve().parents[2]
    cmd = [
        python,
        str(Path(__file__).with_name("bench_sf.py")),
        json.dumps(means),
        str(rollout_steps),
        str(envs_per_worker),
        str(splits),
    ]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(
        cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env, start_new_session=True
    )
    fps: list[float] = []
    tail: list[str] = []
    start, first = time.monotonic(), None
    try:
        assert proc.stdout is not None
        for line in proc.stdout:
            tail = (tail + [line])[-20:]
            m = re.search(r"Fps is \(10 sec: ([0-9.]+)", line)
            if m and m.group(1) != "nan":
                fps.append(float(m.group(1)))
                first = first or time.monotonic()
            if (first and time.monotonic() - first > seconds) or time.monotonic() - start > seconds + 180:
                break
    finally:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=20)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            os.killpg(proc.pid, signal.SIGKILL)
    if len(fps) < 2:
        return {"error": "".join(tail)[-600:]}
    version = subprocess.run(
        [python, "-c", "import importlib.metadata as m; print(m.version('sample-factory'))"],
        capture_output=True,
        text=True,
    ).stdout.strip()
    return {"sps": sum(fps[1:]) / len(fps[1:]), "version": version, "note": "APPO, async; its own 10 s FPS"}


def _sf_python(arg: str | None) -> tuple[str | None, str]:
    if arg:
        return arg, ""
    if importlib.util.find_spec("sample_factory") is not None:
        return sys.executable, ""
    env_python = os.environ.get("TPSRL_SF_PYTHON")
    if env_python:
        return env_python, ""
    return (
        None,
        "sample-factory is not installed here (pip install sample-factory, or pass --sf-python / TPSRL_SF_PYTHON)",
    )


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tpsrl-bench engine", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="short run (< 1 minute)")
    p.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--modes",
        default="sync,nover,ver,ver_eager",
        help=f"comma-separated, from {','.join(BENCH_MODES)} (ver_eager: ver acting without the trace)",
    )
    p.add_argument(
        "--envs-per-worker", type=int, default=None, help="engine.envs_per_worker (default: the engine's)"
    )
    p.add_argument("--min-batch", type=int, default=None, help="engine.min_batch (default: the engine's)")
    p.add_argument(
        "--batch-wait-ms", type=float, default=None, help="engine.batch_wait_ms (default: the engine's)"
    )
    p.add_argument(
        "--sf-python", default=None, help="interpreter with sample-factory, for the optional comparison"
    )
    p.add_argument(
        "--sf-configs",
        default="1x1,2x2",
        help="Sample Factory configurations, envs_per_worker x worker_num_splits, comma-separated",
    )
    p.add_argument("--no-sf", action="store_true", help="skip the Sample Factory comparison")
    p.add_argument("--sf", action="store_true", help="include Sample Factory even with --quick")
    args = p.parse_args(argv)
    for mode in args.modes.split(","):
        if mode not in BENCH_MODES:
            raise SystemExit(f"--modes: unknown mode {mode!r}; accepted: {', '.join(BENCH_MODES)}")
    return args


def _engine_overrides(args: argparse.Namespace) -> dict[str, Any]:
    names = {
        "envs_per_worker": args.envs_per_worker,
        "min_batch": args.min_batch,
        "batch_wait_ms": args.batch_wait_ms,
    }
    return {k: v for k, v in names.items() if v is not None}


def _run_sf_configs(
    args: argparse.Namespace, means: list[float], rollout_steps: int, limit: float, res: dict[str, Any]
) -> None:
    """Every `--sf-configs` entry; records `sps_sample_factory` (the best) and per-config figures."""
    python, why = _sf_python(args.sf_python)
    if python is None:
        print(f"sample-factory: skipped ({why})")
        return
    for spec in args.sf_configs.split(","):
        per_worker, splits = (int(x) for x in spec.split("x"))
        sf = run_sample_factory(
            python, means, rollout_steps, 15.0 if args.quick else 40.0, per_worker, splits
        )
        name = f"sf {spec}"
        if "error" in sf:
            print(f"{name}: failed: {sf['error']}")
            continue
        res[f"sps_sample_factory_{spec}"] = sf["sps"]
        print(
            f"{name:<8}{sf['sps']:>21.0f}{sf['sps'] / limit:>8.2f}  (Sample Factory {sf.get('version', '?')}, "
            f"{sf.get('note', '')}; {per_worker} envs/worker, worker_num_splits={splits})"
        )
        if sf["sps"] > res.get("sps_sample_factory", 0.0):
            res["sps_sample_factory"], res["sample_factory_best_config"] = sf["sps"], spec


def _summary(res: dict[str, Any], limit: float, pool_sps: float) -> None:
    if "sps_ver" in res and "sps_sync" in res:
        res["ver_over_sync"] = res["sps_ver"] / res["sps_sync"]
    if "sps_ver" in res:
        res["ver_collect_over_limit"] = res["sps_collect_ver"] / limit
        res["ver_collect_over_pool_only"] = res["sps_collect_ver"] / pool_sps
    if "sps_ver" in res and "sps_nover" in res:
        res["ver_over_nover"] = res["sps_ver"] / res["sps_nover"]
    if "sps_ver" in res and "sps_ver_eager" in res:
        res["ver_over_ver_eager"] = res["sps_ver"] / res["sps_ver_eager"]
        res["ver_eager_collect_over_pool_only"] = res["sps_collect_ver_eager"] / pool_sps
    if "sps_ver" in res and "sps_sample_factory" in res:
        res["ver_over_sf"] = res["sps_ver"] / res["sps_sample_factory"]
    lines = [
        ("ver_over_sync", "ver / sync", "x (target >= 2)"),
        ("ver_collect_over_pool_only", "ver collection / pool", " (target >= 0.8)"),
        ("ver_collect_over_limit", "ver collection / limit", ""),
        ("ver_over_nover", "ver / nover", "x (target >= 1)"),
        ("ver_over_ver_eager", "ver / ver with eager acting", "x"),
        ("ver_eager_collect_over_pool_only", "ver eager collection / pool", ""),
        ("ver_over_sf", "ver / best Sample Factory", "x (target >= 1)"),
    ]
    print("; ".join(f"{label} = {res[key]:.2f}{target}" for key, label, target in lines if key in res))


def main(argv: list[str]) -> int:
    args = _parse(argv)
    torch.set_num_threads(1)
    rollout_steps, updates = (32, 4) if args.quick else (128, 6)
    engine = _engine_overrides(args)
    means = step_times(args.num_envs, args.seed)
    limit = sum(1.0 / m for m in means)
    print(
        f"engine benchmark: N={args.num_envs}, T={rollout_steps}, {updates} timed updates per mode, "
        f"mean step times {min(means) * 1e3:.1f}..{max(means) * 1e3:.1f} ms (log-uniform 1-20 ms, jitter +-50%)"
        f"{', engine overrides ' + str(engine) if engine else ''}"
    )
    print(f"ideal limit (sum of 1/mean step time): {limit:8.0f} steps/s")
    res: dict[str, Any] = {"sps_limit": limit, "num_envs": args.num_envs, "rollout_steps": rollout_steps}
    print(
        f"{'mode':<8}{'sps (collect+learn)':>21}{'/limit':>8}{'collect sps':>13}{'/limit':>8}"
        f"{'learn s/upd':>13}{'batch':>7}{'carried':>9}"
    )
    per_worker = engine.get("envs_per_worker", EngineConfig.envs_per_worker)
    pool_sps = run_pool_only(
        [SleepyFactory(m) for m in means], 5.0 if args.quick else 15.0, args.seed, per_worker
    )
    res["sps_pool_only"] = pool_sps
    print(
        f"{'pool':<8}{'-':>21}{'':>8}{pool_sps:>13.0f}{pool_sps / limit:>8.2f}   (workers alone, no policy: "
        "the ceiling of this machine's wake-ups and pipes)"
    )
    for mode in args.modes.split(","):
        extra = {"trace_acting": False} if mode == "ver_eager" else {}
        r = run_mode(mode.removesuffix("_eager"), means, rollout_steps, updates, args.seed, **engine, **extra)
        res[f"sps_{mode}"], res[f"sps_collect_{mode}"] = r["sps"], r["sps_collect"]
        print(
            f"{mode:<8}{r['sps']:>21.0f}{r['sps'] / limit:>8.2f}{r['sps_collect']:>13.0f}"
            f"{r['sps_collect'] / limit:>8.2f}{r['learn_s_per_update']:>13.3f}{r['inference_batch']:>7.1f}"
            f"{r['carried']:>9.1f}"
        )
    if args.quick and not args.sf and not args.no_sf:
        print("sample-factory: skipped (--quick; its worker processes take ~1 min to start; pass --sf)")
    elif not args.no_sf:
        _run_sf_configs(args, means, rollout_steps, limit, res)
    _summary(res, limit, pool_sps)
    if args.json:
        print(json.dumps(res))
    return 0
