"""`tpsrl-bench train`: end-to-end training steps/s on our simulator against the simulator alone, side by
side in one run on the same cores.

- sim limit: the same number of env processes as training uses, each stepping its envs with random
  actions and nothing else (no policy, no trainer), started together; the sum of their steps/s;
- train: the real training loop (`train`, engine `ver`) on the same envs, once per policy preset in
  `--policy` (default `mlp,cpu`: the feed-forward preset meant for state observations, then the
  recurrent CPU preset) and per way of acting in `--engines` (`ENGINES`: the trainer thread acts, the
  workers act, the workers act and collect while the learner learns); env steps / (collection +
  learning) time over the timed updates (the first update, worker start-up included, is not timed).
  The headline keys (`train_sps`, `train_over_sim_limit`) are the first preset's with the first engine;
  every run also gets `train_sps_<preset>` (the `trainer` engine) or `train_sps_<preset>_<engine>`, ...

The env is the registered `pick` skill task when `skills.registry` has it (state observations, no depth),
else the simulator's free task. Simulator and skill modules are imported lazily, inside functions:
the engine itself imports neither.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from tpsrl.engine.bench import run_pool_only
from tpsrl.engine.envs import EnvFactory
from tpsrl.engine.workers import worker_groups

SKILL_REGISTRY = "skills.registry:TASKS"

ENGINES = {
    "trainer": [],  # the trainer thread acts for dynamic batches of ready envs (`collector.py`)
    "workers": ["engine.act_in_workers=true"],  # each worker acts for its own envs (`acting.py`)
    "overlap": ["engine.act_in_workers=true", "engine.overlap_learning=true"],  # and collects while learning
}


def task_available(task: str) -> bool:
    """Whether `task` is in the skill registry of this tree."""
    try:
        from skills.registry import TASKS
    except ImportError:
        return False
    return task in TASKS


def sim_factory(task: str) -> tuple[EnvFactory, str]:
    """A picklable factory for `task` with state observations, and a label; the free task if absent."""
    from tpsrl.sim.env import RearrangeEnvFactory

    if task_available(task):
        return RearrangeEnvFactory(task=task, task_config={"depth": 0}, registry=SKILL_REGISTRY), task
    return RearrangeEnvFactory(), "free (default env)"


def _sim_process(factory: EnvFactory, count: int, seconds: float, seed: int, barrier: Any, out: Any) -> None:
    """Steps `count` envs round-robin with random actions for `seconds` once every process is ready."""
    envs = [factory() for _ in range(count)]
    rng = np.random.default_rng(seed)
    for i, env in enumerate(envs):
        env.reset(seed=seed + i)
        env.action_space.seed(seed + i)
    barrier.wait()
    steps, t0 = 0, time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        for env in envs:
            action = rng.uniform(env.action_space.low, env.action_space.high).astype(np.float32)
            _, _, terminated, truncated, _ = env.step(action)
            if terminated or truncated:
                env.reset()
            steps += 1
    out.put(steps / (time.perf_counter() - t0))


def run_sim_only(
    factory: EnvFactory, num_envs: int, envs_per_worker: int, seconds: float, seed: int
) -> float:
    """Total steps/s of as many processes as training's workers, stepping the same envs, no policy."""
    ctx = mp.get_context("forkserver")
    groups = worker_groups(num_envs, envs_per_worker)
    barrier, out = ctx.Barrier(len(groups)), ctx.Queue()
    procs = [
        ctx.Process(target=_sim_process, args=(factory, len(g), seconds, seed + 1000 * w, barrier, out))
        for w, g in enumerate(groups)
    ]
    for p in procs:
        p.start()
    try:
        return sum(out.get(timeout=seconds + 300) for _ in procs)
    finally:
        for p in procs:
            p.join(timeout=10)


def run_training(
    factory: EnvFactory, args: argparse.Namespace, policy: str, engine: str, run_dir: Path
) -> dict[str, float]:
    """Trains `args.updates + 1` updates with the `policy` preset and the `engine` way of acting
    (`ENGINES`); figures over all but the first."""
    from tpsrl.engine.train import compose_config, train

    t, n = args.rollout_steps, args.num_envs
    overrides = [
        f"policy={policy}",
        f"engine.num_envs={n}",
        f"engine.envs_per_worker={args.envs_per_worker}",
        f"engine.rollout_steps={t}",
        f"run.total_steps={(args.updates + 1) * t * n}",
        f"run.dir={run_dir}",
        "run.wandb=disabled",
        "run.progress=false",
        "run.checkpoint_every=1000000000",
        f"run.seed={args.seed}",
        "run.torch_threads=1",
        *ENGINES[engine],
        *args.override,
    ]
    result = train(compose_config(overrides), factory)
    timed = result.history[1:]
    collect = sum(m["time/collect_s"] for m in timed)
    learn = sum(m["time/learn_s"] for m in timed)
    collect_cpu = sum(m["time/collect_cpu_s"] for m in timed)
    steps = t * n * len(timed)
    return {
        "train_sps": steps / (collect + learn),
        "train_collect_sps": steps / collect,
        "learn_s_per_update": learn / len(timed),
        "learn_fraction": learn / (collect + learn),
        "collect_main_cpu_ms_per_step": 1e3 * collect_cpu / steps,
        "collect_main_busy": collect_cpu / collect,
        "inference_batch": steps / sum(m["collect/inference_calls"] for m in timed),
    }


def cpu_budget(res: dict[str, Any], policy: str) -> str:
    """Where the CPU time of one env step goes (ms of core time) when the trainer thread acts, for the
    `policy` preset: at 0.5 of the sim limit, everything that is not the simulator must fit in the
    simulator's own share."""
    cores, steps_per_update = res["cores"], res["rollout_steps"] * res["num_envs"]
    sim = 1e3 * cores / res["sim_sps_limit"]
    protocol = 1e3 * cores / res["workers_only_sps"] - sim
    learn = 1e3 * res[f"learn_s_per_update_{policy}"] / steps_per_update
    main = res[f"collect_main_cpu_ms_per_step_{policy}"]
    return (
        f"per env step, ms of core time: simulator {sim:.3f}, worker protocol {protocol:.3f}, trainer thread "
        f"in collection {main:.3f}, learning {learn:.3f} of wall time (one thread while the workers wait: "
        f"{cores} x that in core time); at 0.5 of the sim limit all but the simulator must fit in {sim:.3f}"
    )


def _parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="tpsrl-bench train", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="short run (< 5 minutes)")
    p.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    p.add_argument("--task", default="pick", help="skill task (falls back to the free task if absent)")
    p.add_argument("--num-envs", type=int, default=8)
    p.add_argument(
        "--envs-per-worker", type=int, default=0, help="0: num_envs / cores (one process per core)"
    )
    p.add_argument("--rollout-steps", type=int, default=0, help="T; 0: 64 with --quick, else 128")
    p.add_argument("--updates", type=int, default=0, help="timed updates; 0: 3 with --quick, else 8")
    p.add_argument(
        "--sim-seconds", type=float, default=0.0, help="sim-only duration; 0: 10 with --quick, else 30"
    )
    p.add_argument("--policy", default="mlp,cpu", help="policy presets (configs/policy), comma-separated")
    p.add_argument(
        "--engines",
        default="workers,overlap,trainer",
        help=f"ways of acting, comma-separated: {', '.join(ENGINES)}",
    )
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--override", nargs="*", default=[], help="extra Hydra overrides for training")
    args = p.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    args.envs_per_worker = args.envs_per_worker or max(1, -(-args.num_envs // cores))
    args.rollout_steps = args.rollout_steps or (64 if args.quick else 128)
    args.updates = args.updates or (3 if args.quick else 8)
    args.sim_seconds = args.sim_seconds or (10.0 if args.quick else 30.0)
    args.cores = cores
    args.engines = args.engines.split(",")
    unknown = [e for e in args.engines if e not in ENGINES]
    if unknown:
        p.error(f"--engines: unknown {', '.join(unknown)}; accepted: {', '.join(ENGINES)}")
    return args


def main(argv: list[str]) -> int:
    args = _parse(argv)
    factory, label = sim_factory(args.task)
    workers = len(worker_groups(args.num_envs, args.envs_per_worker))
    print(
        f"training-throughput benchmark: task {label}, state observations, N={args.num_envs} envs in "
        f"{workers} processes ({args.envs_per_worker} per process) on {args.cores} cores, T={args.rollout_steps}, "
        f"policy={args.policy}, engines {','.join(args.engines)}, {args.updates} timed updates"
    )
    sim = run_sim_only(factory, args.num_envs, args.envs_per_worker, args.sim_seconds, args.seed)
    print(f"{'sim only':<12}{sim:>10.0f} steps/s   ({workers} processes stepping random actions, no policy)")
    pool = run_pool_only([factory] * args.num_envs, args.sim_seconds, args.seed, args.envs_per_worker)
    print(
        f"{'workers':<12}{pool:>10.0f} steps/s   = {pool / sim:.2f} of the sim limit (the engine's worker "
        "processes and protocol, each reply answered at once with a zero action: no policy, no learning)"
    )
    res: dict[str, Any] = {
        "sim_sps_limit": sim,
        "task": label,
        "num_envs": args.num_envs,
        "envs_per_worker": args.envs_per_worker,
        "worker_processes": workers,
        "cores": args.cores,
        "rollout_steps": args.rollout_steps,
        "workers_only_sps": pool,
        "workers_only_over_sim_limit": pool / sim,
    }
    runs = [(policy, engine) for policy in args.policy.split(",") for engine in args.engines]
    for i, (policy, engine) in enumerate(runs):
        with tempfile.TemporaryDirectory(prefix="tpsrl-bench-train-") as tmp:
            r = run_training(factory, args, policy, engine, Path(tmp) / "run")
        r["train_over_sim_limit"] = r["train_sps"] / sim
        name = policy if engine == "trainer" else f"{policy}_{engine}"
        print(
            f"{'train ' + name:<20}{r['train_sps']:>8.0f} steps/s   = {r['train_over_sim_limit']:.2f} of the sim "
            f"limit (collect only {r['train_collect_sps']:.0f}; learning {r['learn_s_per_update']:.2f} s/update, "
            f"{r['learn_fraction']:.0%} of the time; mean inference batch {r['inference_batch']:.1f}; trainer thread "
            f"{r['collect_main_cpu_ms_per_step']:.3f} ms CPU per collected step, busy "
            f"{r['collect_main_busy']:.0%} of collection)"
        )
        res.update({f"{k}_{name}": v for k, v in r.items()})
        if i == 0:
            res.update(r, policy=policy, engine=engine)
    print(
        f"train / sim limit = {res['train_over_sim_limit']:.2f} with policy={res['policy']}, engine "
        f"{res['engine']} (target >= 0.5)"
    )
    first = args.policy.split(",")[0]
    if f"train_sps_{first}" in res:
        print(cpu_budget(res, first))
    if args.json:
        print(json.dumps(res))
    return 0
