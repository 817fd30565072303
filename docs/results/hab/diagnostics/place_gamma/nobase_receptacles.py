"""No-base place outcomes by goal receptacle, for evaluate JSONs of the 800 (sets 1e6-4e6, no base movement,
spawns within 1.0 m, as `skills/checkpoints/place_nobase.pt` was trained).

    python docs/results/hab/diagnostics/place_gamma/nobase_receptacles.py JSON [JSON ...]

Each JSON's policy and its `against` policy: successes / episodes per goal receptacle.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from skills.registry import make_env


def receptacles(episodes: int = 200, seeds=(1_000_000, 2_000_000, 3_000_000, 4_000_000)) -> list[str]:
    env = make_env("place", split="heldout", base_movement=False, spawn_max_dist=1.0)
    rows = []
    for seed in seeds:
        for k in range(episodes):
            env.reset(seed=seed + k)
            rows.append(env.backend.spec.targets[0].goal_receptacle)
    env.close()
    return rows


def main(paths: list[str]) -> None:
    rows = receptacles()
    results = {}
    for p in paths:
        d = json.load(open(p))
        results[d["policy"]] = d["outcomes"]
        if "against" in d:
            results[d["against"]["policy"]] = d["against"]["outcomes"]
    total = Counter(rows)
    print(f"{'receptacle':18s}{'episodes':>9s}" + "".join(f"{n[-28:]:>30s}" for n in results))
    for r in sorted(total):
        cells = [sum(o for o, g in zip(out, rows, strict=True) if g == r) for out in results.values()]
        print(f"{r:18s}{total[r]:9d}" + "".join(f"{c:>22d} ({100 * c / total[r]:5.1f}%)" for c in cells))


if __name__ == "__main__":
    main(sys.argv[1:])
