"""Place outcomes by goal receptacle and by the way to the goal, for evaluate JSONs of the 800.

    python docs/results/hab/diagnostics/place_updates/by_receptacle.py 200 1000000,2000000,3000000,4000000 \
        docs/results/hab/diagnostics/place_updates/scripted_800.json

For each held-out episode (seed + k, as `skills.evaluate` draws them): its goal receptacle and whether its
way is straight (a detour under 0.25 m, `place_depth/detours.py`); then each policy's (and its `against`
policy's) successes per receptacle, on the straight starts and on all.
"""

from __future__ import annotations

import json
import sys
from collections import Counter

from skills.registry import make_env
from skills.terms import Detour


def episodes(n: int, seeds: list[int]) -> list[tuple[str, float | None]]:
    env = make_env("place", split="heldout")
    detour, rows = Detour(), []
    for seed in seeds:
        for k in range(n):
            env.reset(seed=seed + k)
            spec = env.backend.spec
            target = spec.targets[0]
            detour.reset(spec.layout, spec.articulation_dict, target.goal)
            rows.append((target.goal_receptacle, detour(env.backend.base_pose[:2])))
    env.close()
    return rows


def main(argv: list[str]) -> None:
    n, seeds = int(argv[0]), [int(s) for s in argv[1].split(",")]
    rows = episodes(n, seeds)
    policies: dict[str, list[bool]] = {}
    for path in argv[2:]:
        d = json.load(open(path))
        for p in (d, d.get("against")):
            if p:
                policies[p["policy"]] = p["outcomes"]
    straight = [d is not None and d < 0.25 for _, d in rows]
    total, total_s = (
        Counter(r for r, _ in rows),
        Counter(r for (r, _), s in zip(rows, straight, strict=True) if s),
    )
    names = list(policies)
    print(
        f"{'receptacle':16s} {'episodes':>9s} {'straight':>9s}  "
        + "  ".join(f"{n[-24:]:>24s}" for n in names)
    )
    for rec in sorted(total):
        cells = []
        for name in names:
            o = policies[name]
            ok = sum(x for (r, _), x in zip(rows, o, strict=True) if r == rec)
            ok_s = sum(x for (r, _), x, s in zip(rows, o, straight, strict=True) if r == rec and s)
            cells.append(f"{100 * ok_s / max(total_s[rec], 1):5.1f} / {100 * ok / total[rec]:5.1f}%")
        print(f"{rec:16s} {total[rec]:9d} {total_s[rec]:9d}  " + "  ".join(f"{c:>24s}" for c in cells))
    print("(each cell: success on the straight starts / on all)")


if __name__ == "__main__":
    main(sys.argv[1:])
