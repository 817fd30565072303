"""`tpsrl-bench sim`: control steps per second of one simulator process, side by side in one run.

Measures the gymnasium env (physics + sensors) under random actions: without depth, with 64x64 and
128x128 ray-cast depth (and OpenGL depth when a context is available), and with 0, 10 and 30 clutter
objects; reports the spread of per-step times. The figures depend on the machine and its load:
compare ratios from one run, not numbers across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import time

import numpy as np

from .backend import DepthSettings
from .env import ALL_OBSERVATIONS, EnvConfig, RearrangeEnv

NO_DEPTH_OBS = tuple(o for o in ALL_OBSERVATIONS if o != "head_depth")


def measure(cfg: EnvConfig, steps: int, seed: int = 0) -> dict[str, float]:
    """Step `steps` random actions (resetting on episode end); steps/s and per-step time spread."""
    env = RearrangeEnv(cfg)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    for _ in range(20):  # warm up: settle objects, build caches
        env.step(_random_action(rng, env))
    times = np.empty(steps)
    for i in range(steps):
        a = _random_action(rng, env)
        t0 = time.perf_counter()
        _, _, term, trunc, _ = env.step(a)
        times[i] = time.perf_counter() - t0
        if term or trunc:
            env.reset()
    env.close()
    return {
        "steps_per_s": float(steps / times.sum()),
        "ms_p50": float(np.percentile(times, 50) * 1e3),
        "ms_p90": float(np.percentile(times, 90) * 1e3),
        "ms_p99": float(np.percentile(times, 99) * 1e3),
        "cv": float(times.std() / times.mean()),
    }


def _random_action(rng: np.random.Generator, env: RearrangeEnv) -> np.ndarray:
    a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
    if "rearrange_stop" in env._slices:
        a[env._slices["rearrange_stop"]] = -1.0  # never stop: measure stepping, not resets
    return a


def _gl_available() -> bool:
    try:
        import mujoco

        from .mujoco.scene import build_model

        r = mujoco.Renderer(build_model(0, ()), 8, 8)
        r.close()
        return True
    except Exception:  # noqa: BLE001 - any GL failure means "not available"
        return False


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tpsrl-bench sim", description=__doc__)
    p.add_argument("--quick", action="store_true", help="fewer steps (under a minute)")
    p.add_argument("--steps", type=int, default=None, help="steps per configuration")
    p.add_argument(
        "--json", action="store_true", help="print all figures as one JSON object on the last line"
    )
    args = p.parse_args(argv)
    steps = args.steps or (300 if args.quick else 2000)
    cases: dict[str, EnvConfig] = {
        "no_depth": EnvConfig(depth=DepthSettings(mode="none"), observations=NO_DEPTH_OBS, clutter=(10, 10)),
        "depth64": EnvConfig(depth=DepthSettings(height=64, width=64), clutter=(10, 10)),
        "depth128": EnvConfig(depth=DepthSettings(height=128, width=128), clutter=(10, 10)),
        "clutter0": EnvConfig(depth=DepthSettings(mode="none"), observations=NO_DEPTH_OBS, clutter=(0, 0)),
        "clutter10": EnvConfig(depth=DepthSettings(mode="none"), observations=NO_DEPTH_OBS, clutter=(10, 10)),
        "clutter30": EnvConfig(depth=DepthSettings(mode="none"), observations=NO_DEPTH_OBS, clutter=(30, 30)),
    }
    if _gl_available():
        cases["gl_depth64"] = EnvConfig(depth=DepthSettings(mode="gl", height=64, width=64), clutter=(10, 10))
    else:
        print(
            "OpenGL depth: skipped (no EGL/OSMesa context; set MUJOCO_GL and install libegl1 or libosmesa6)"
        )
    print(
        f"tpsrl-bench sim: {steps} random-action steps per case, one process (pid {os.getpid()}), {os.cpu_count()} cores"
    )
    print(f"{'case':<12} {'steps/s':>9} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'cv':>6}")
    results: dict[str, dict[str, float]] = {}
    for name, cfg in cases.items():
        r = results[name] = measure(cfg, steps)
        print(
            f"{name:<12} {r['steps_per_s']:>9.0f} {r['ms_p50']:>8.2f} {r['ms_p90']:>8.2f} {r['ms_p99']:>8.2f} {r['cv']:>6.2f}"
        )
    base = results["no_depth"]["steps_per_s"]
    print(
        "ratios to no_depth: " + ", ".join(f"{k} {v['steps_per_s'] / base:.2f}" for k, v in results.items())
    )
    print(
        f"targets (one core): no_depth >= 1000 steps/s: {base >= 1000}; depth64 >= 250: {results['depth64']['steps_per_s'] >= 250}"
    )
    if args.json:
        flat: dict[str, float] = {f"steps_per_s_{k}": v["steps_per_s"] for k, v in results.items()}
        flat.update({f"ms_p99_{k}": v["ms_p99"] for k, v in results.items()})
        flat.update({f"cv_{k}": v["cv"] for k, v in results.items()})
        flat["steps"] = steps
        print(json.dumps(flat, sort_keys=True))
    return 0
