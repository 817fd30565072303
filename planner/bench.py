"""`tpsrl-bench planner`: planning time and plan length for the three HAB scenarios.

Each repetition builds the problem from the episode and plans it (grounding, pruning and search; the
domain is parsed once beforehand and reported separately). The maximum over repetitions is the figure
to hold against the 0.1 s target. A generic greedy best-first search without pruning (our own naive
baseline) runs once per scenario for comparison. ``--json`` prints one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from planner.baseline import greedy_best_first
from planner.domain import builtin_domain
from planner.facts import simulate
from planner.problem import problem_from_episode
from planner.scenarios import REFERENCE_PLAN_LENGTHS, SCENARIOS, get_scenario
from planner.search import plan


def _bench_scenario(name: str, distractors: int, reps: int, baseline_limit: float) -> dict[str, Any]:
    domain = builtin_domain("rearrange")
    episode = get_scenario(name, n_distractors=distractors)
    times, result = [], None
    for _ in range(reps):
        start = time.perf_counter()
        problem = problem_from_episode(episode)
        result = plan(problem, domain)
        times.append(time.perf_counter() - start)
    assert result is not None and result.solved, f"{name}: {result}"
    problem = problem_from_episode(episode)
    valid = problem.goal <= simulate(problem.init, result.actions)
    nonav = plan(problem, builtin_domain("rearrange_nonav"))
    row: dict[str, Any] = {
        "max_plan_seconds": max(times),
        "median_plan_seconds": statistics.median(times),
        "plan_len": len(result),
        "reference_len": REFERENCE_PLAN_LENGTHS[name],
        "valid": valid,
        "expanded": result.expanded,
        "nonav_plan_len": len(nonav),
        "objects": len(problem.objects),
        "distractors": distractors,
    }
    if baseline_limit > 0:
        start = time.perf_counter()
        base = greedy_best_first(problem, domain, time_limit=baseline_limit)
        row["baseline_gbfs_seconds"] = time.perf_counter() - start
        row["baseline_gbfs_plan_len"] = len(base) if base.solved else None
        row["baseline_over_ours_time"] = row["baseline_gbfs_seconds"] / max(row["median_plan_seconds"], 1e-9)
    return row


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="tpsrl-bench planner", description=__doc__.splitlines()[0])
    parser.add_argument("--distractors", type=int, default=25, help="distractor objects per scenario")
    parser.add_argument("--reps", type=int, default=20, help="repetitions per scenario (max is reported)")
    parser.add_argument(
        "--baseline-limit", type=float, default=10.0, help="seconds for the GBFS baseline; 0 skips"
    )
    parser.add_argument("--quick", action="store_true", help="5 repetitions, no baseline")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)
    reps, limit = (5, 0.0) if args.quick else (args.reps, args.baseline_limit)

    start = time.perf_counter()
    builtin_domain("rearrange")
    builtin_domain("rearrange_nonav")
    parse_seconds = time.perf_counter() - start

    rows = {name: _bench_scenario(name, args.distractors, reps, limit) for name in SCENARIOS}
    print(
        f"planner benchmark: {args.distractors} distractors, {reps} repetitions, domains parsed in {parse_seconds:.3f} s"
    )
    header = (
        f"{'scenario':<18} {'len':>4} {'ref':>4} {'nonav':>5} {'max s':>8} {'median s':>9} {'expanded':>8}"
    )
    if limit > 0:
        header += f" {'gbfs s':>7} {'gbfs len':>8} {'gbfs/ours':>9}"
    print(header)
    for name, r in rows.items():
        line = (
            f"{name:<18} {r['plan_len']:>4} {r['reference_len']:>4} {r['nonav_plan_len']:>5} "
            f"{r['max_plan_seconds']:>8.4f} {r['median_plan_seconds']:>9.4f} {r['expanded']:>8}"
        )
        if limit > 0:
            base_len = r["baseline_gbfs_plan_len"]
            line += (
                f" {r['baseline_gbfs_seconds']:>7.3f} {base_len if base_len is not None else '-':>8} "
                f"{r['baseline_over_ours_time']:>8.0f}x"
            )
        print(line)
    ok = all(r["valid"] and r["plan_len"] == r["reference_len"] for r in rows.values())
    if args.json:
        print(json.dumps({**rows, "domain_parse_seconds": parse_seconds}))
    return 0 if ok else 1
