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
from tpsrl.engine.envs import probe_spaces
from tpsrl.engine.policy import PolicyConfig
from tpsrl.engine.ppo import PPOConfig
from tpsrl.engine.synthetic import SleepyFactory
from tpsrl.engine.train import train
from tpsrl.engine.workers import Command, ProcessPool, command


def step_times(num_envs: int, seed: int, low_ms: float = 1.0, high_ms: float = 20.0) -> list[float]:
    """Mean step time of each env in seconds, log-uniform in [low_ms, high_ms]."""
    rng = np.random.default_rng(seed)
    return [float(x) for x in np.exp(rng.uniform(math.log(low_ms), math.log(high_ms), num_envs)) / 1000.0]


def run_mode(mode: str, means: list[float], rollout_steps: int, updates: int, seed: int) -> dict[str, float]:
    n = len(means)
    with tempfile.TemporaryDirectory(prefix="tpsrl-bench-") as tmp:
        cfg = TrainConfig(
            engine=EngineConfig(mode=mode, num_envs=n, rollout_steps=rollout_steps),
            ppo=PPOConfig(epochs=2, num_minibatches=2, max_sequence_length=rollout_steps),
            policy=PolicyConfig(hidden_size=32, mlp_hidden=32),
            run=RunConfig(
                dir=str(Path(tmp) / "run"),
                total_steps=(updates + 1) * rollout_steps * n,
                seed=seed,
                wandb="disabled",
                progress=False,
                checkpoint_every=10**9,
            ),  # fmt: skip
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


def run_pool_only(means: list[float], seconds: float, seed: int) -> float:
    """Steps/s of the same worker pool with no policy: each reply is answered at once with a zero action.

    This is the ceiling the machine's process wake-ups and pipes allow (no inference, no buffer); the
    collection figures of the three modes are read against it as well as against the ideal limit.
    """
    factories = [SleepyFactory(m) for m in means]
    obs_space, action_space = probe_spaces(factories[0])
    pool = ProcessPool(factories, shm.step_spec(obs_space, action_space), "forkserver", 60.0)
    try:
        for e in range(len(means)):
            pool.send(e, command(Command.RESET, seed=seed + e))
        started: set[int] = set()
        while len(started) < len(means):
            started.update(e for e, _ in pool.poll())
        pool.views["action"][:] = 0.0
        for e in range(len(means)):
            pool.send(e, command(Command.STEP))
        steps, t0 = 0, time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            for e, _ in pool.poll():
                steps += 1
                pool.send(e, command(Command.STEP))
        return steps / (time.perf_counter() - t0)
    finally:
        pool.close()


def run_sample_factory(python: str, means: list[float], rollout_steps: int, seconds: float) -> dict[str, Any]:
    """Runs `bench_sf.py` under `python` (which has sample-factory) for `seconds` after its first FPS
    reading, then stops its process group; returns the mean of its 10-second FPS readings after the first."""
    root = Path(__file__).resolve().parents[2]
    cmd = [python, str(Path(__file__).with_name("bench_sf.py")), json.dumps(means), str(rollout_steps)]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            start_new_session=True)  # fmt: skip
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
    version = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('sample-factory'))"],
                             capture_output=True, text=True).stdout.strip()  # fmt: skip
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


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="tpsrl-bench engine", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="short run (< 1 minute)")
    p.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    p.add_argument("--num-envs", type=int, default=16)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--modes", default="sync,nover,ver")
    p.add_argument(
        "--sf-python", default=None, help="interpreter with sample-factory, for the optional comparison"
    )
    p.add_argument("--no-sf", action="store_true", help="skip the Sample Factory comparison")
    p.add_argument("--sf", action="store_true", help="include Sample Factory even with --quick")
    args = p.parse_args(argv)
    torch.set_num_threads(1)
    rollout_steps, updates = (32, 4) if args.quick else (128, 6)
    means = step_times(args.num_envs, args.seed)
    limit = sum(1.0 / m for m in means)
    print(f"engine benchmark: N={args.num_envs}, T={rollout_steps}, {updates} timed updates per mode, "
          f"mean step times {min(means) * 1e3:.1f}..{max(means) * 1e3:.1f} ms (log-uniform 1-20 ms, jitter +-50%)")  # fmt: skip
    print(f"ideal limit (sum of 1/mean step time): {limit:8.0f} steps/s")
    res: dict[str, Any] = {"sps_limit": limit, "num_envs": args.num_envs, "rollout_steps": rollout_steps}
    print(f"{'mode':<8}{'sps (collect+learn)':>21}{'/limit':>8}{'collect sps':>13}{'/limit':>8}"
          f"{'learn s/upd':>13}{'batch':>7}{'carried':>9}")  # fmt: skip
    pool_sps = run_pool_only(means, 5.0 if args.quick else 15.0, args.seed)
    res["sps_pool_only"] = pool_sps
    print(f"{'pool':<8}{'-':>21}{'':>8}{pool_sps:>13.0f}{pool_sps / limit:>8.2f}   (workers alone, no policy: "
          "the ceiling of this machine's wake-ups and pipes)")  # fmt: skip
    for mode in args.modes.split(","):
        r = run_mode(mode, means, rollout_steps, updates, args.seed)
        res[f"sps_{mode}"], res[f"sps_collect_{mode}"] = r["sps"], r["sps_collect"]
        print(f"{mode:<8}{r['sps']:>21.0f}{r['sps'] / limit:>8.2f}{r['sps_collect']:>13.0f}"
              f"{r['sps_collect'] / limit:>8.2f}{r['learn_s_per_update']:>13.3f}{r['inference_batch']:>7.1f}"
              f"{r['carried']:>9.1f}")  # fmt: skip
    if args.quick and not args.sf and not args.no_sf:
        print("sample-factory: skipped (--quick; its 16 worker processes take ~1 min to start; pass --sf)")
    elif not args.no_sf:
        python, why = _sf_python(args.sf_python)
        if python is None:
            print(f"sample-factory: skipped ({why})")
        else:
            sf = run_sample_factory(python, means, rollout_steps, 15.0 if args.quick else 40.0)
            if "error" in sf:
                print(f"sample-factory: failed: {sf['error']}")
            else:
                res["sps_sample_factory"] = sf["sps"]
                print(f"{'sf':<8}{sf['sps']:>21.0f}{sf['sps'] / limit:>8.2f}  (Sample Factory {sf.get('version', '?')},"
                      f" {sf.get('note', '')})")  # fmt: skip
    if "sps_ver" in res and "sps_sync" in res:
        res["ver_over_sync"] = res["sps_ver"] / res["sps_sync"]
        res["ver_collect_over_limit"] = res["sps_collect_ver"] / limit
        res["ver_collect_over_pool_only"] = res["sps_collect_ver"] / pool_sps
        print(f"ver / sync = {res['ver_over_sync']:.2f}x (target >= 2); ver collection / limit = "
              f"{res['ver_collect_over_limit']:.2f} (target >= 0.8)", end="")  # fmt: skip
        if "sps_nover" in res:
            res["ver_over_nover"] = res["sps_ver"] / res["sps_nover"]
            print(f"; ver / nover = {res['ver_over_nover']:.2f}x (target >= 1)", end="")
        print()
    if args.json:
        print(json.dumps(res))
    return 0
