"""How many of the 800 episodes of 4.0e7-4.3e7 any no-base place solves: every `*_40e6.json` under
docs/results/hab/diagnostics/ of 800 episodes (the ones held by the centre grasp or on sampled actions left
out: other rules), by goal receptacle, beside s139's failures.

    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "place_gamma"))
from nobase_receptacles import receptacles  # noqa: E402

SEEDS = (40_000_000, 41_000_000, 42_000_000, 43_000_000)
S139 = HERE.parent / "place_from_base" / "place_nobase_fresh_s139_ft_40e6.json"


def main() -> None:
    paths = sorted(
        p
        for p in HERE.parent.glob("*/*_40e6.json")
        if "centre" not in p.name and "sampled" not in p.name and p.parent != HERE
    )
    outcomes = {p: json.loads(p.read_text())["outcomes"] for p in paths}
    outcomes = {p: o for p, o in outcomes.items() if len(o) == 800}
    solved_by = [sum(o[i] for o in outcomes.values()) for i in range(800)]
    s139 = json.loads(S139.read_text())["outcomes"]
    goals = [r for r, _ in receptacles(seeds=SEEDS)]
    total = Counter(goals)
    never = Counter(g for g, n in zip(goals, solved_by, strict=True) if n == 0)
    fails = Counter(g for g, ok in zip(goals, s139, strict=True) if not ok)
    others = Counter(g for g, ok, n in zip(goals, s139, solved_by, strict=True) if not ok and n > 0)
    print(f"{len(outcomes)} policies' outcomes on the same 800 episodes")
    print(
        f"{'receptacle':18s} {'episodes':>8s} {'none solves':>11s} {'s139 fails':>10s} {'another solves':>14s}"
    )
    for g in sorted(total):
        print(f"{g:18s} {total[g]:8d} {never[g]:11d} {fails[g]:10d} {others[g]:14d}")
    n_never = sum(never.values())
    print(
        f"{'all':18s} {800:8d} {n_never:11d} {sum(fails.values()):10d} {sum(others.values()):14d}"
        f"   (solved by at least one: {800 - n_never} = {100 * (800 - n_never) / 800:.2f}%)"
    )


if __name__ == "__main__":
    main()
