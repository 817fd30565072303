"""No-base place outcomes by goal receptacle, for evaluate JSONs of the 800 (sets 1e6-4e6, no base movement,
spawns within 1.0 m, as `skills/checkpoints/place_nobase.pt` was trained).

    python docs/results/hab/diagnostics/place_gamma/nobase_receptacles.py JSON [JSON ...]
    SPAWN_RULE=habitat2 python docs/results/hab/diagnostics/place_gamma/nobase_receptacles.py JSON  # Habitat 2.0's spawn
    SEEDS=40000000,41000000,42000000,43000000 python docs/results/hab/diagnostics/place_gamma/nobase_receptacles.py JSON

Each JSON's policy and its `against` policy: successes / episodes per goal receptacle; then per receptacle
and how far the goal lies beyond the suction cup's measured reach from the spawn (`skills.spawn.reach_xy` of
the goal's height; the held object hangs below the cup, so a goal a little beyond it can still be placed).
"""

from __future__ import annotations

import json
import os
import sys

import numpy as np

from skills.registry import make_env
from skills.spawn import reach_xy

BANDS = ((-np.inf, 0.0, "within reach"), (0.0, 0.2, "0-0.2 m beyond"), (0.2, np.inf, ">= 0.2 m beyond"))


def receptacles(
    episodes: int = 200, seeds=(1_000_000, 2_000_000, 3_000_000, 4_000_000), rule: str | None = None
) -> list[tuple[str, str]]:
    """(goal receptacle, reach band) of each episode, in evaluate's order; `rule`: the spawn rule (default
    $SPAWN_RULE, else within)."""
    rule = rule or os.environ.get("SPAWN_RULE", "within")
    env = make_env("place", split="heldout", base_movement=False, spawn_max_dist=1.0, spawn_rule=rule)
    rows = []
    for seed in seeds:
        for k in range(episodes):
            env.reset(seed=seed + k)
            x, y, _ = env.backend.base_pose
            goal = env.task.goal
            beyond = float(np.hypot(goal[0] - x, goal[1] - y)) - reach_xy(float(goal[2]))
            band = next(name for lo, hi, name in BANDS if lo <= beyond < hi)
            rows.append((env.backend.spec.targets[0].goal_receptacle, band))
    env.close()
    return rows


def table(keys: list[str], results: dict[str, list[bool]]) -> None:
    total = {k: keys.count(k) for k in dict.fromkeys(sorted(keys))}
    for r, n in total.items():
        cells = [sum(o for o, g in zip(out, keys, strict=True) if g == r) for out in results.values()]
        print(f"{r:34s}{n:9d}" + "".join(f"{c:>22d} ({100 * c / n:5.1f}%)" for c in cells))


def main(paths: list[str]) -> None:
    seeds = os.environ.get("SEEDS")  # the sets of 200 the JSONs were evaluated on (default: the 800)
    rows = receptacles(seeds=tuple(int(s) for s in seeds.split(","))) if seeds else receptacles()
    results = {}
    for p in paths:
        d = json.load(open(p))
        results[d["policy"]] = d["outcomes"]
        if "against" in d:
            results[d["against"]["policy"]] = d["against"]["outcomes"]
    print(f"{'receptacle':34s}{'episodes':>9s}" + "".join(f"{n[-28:]:>30s}" for n in results))
    table([r for r, _ in rows], results)
    print()
    table([b for _, b in rows], results)
    print()
    table([f"{r}, {b}" for r, b in rows], results)


if __name__ == "__main__":
    main(sys.argv[1:])
