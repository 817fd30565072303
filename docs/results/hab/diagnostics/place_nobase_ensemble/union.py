"""How many of a set of 800 episodes any no-base place solves: every `*_SUFFIX.json` under
docs/results/hab/diagnostics/ of 800 episodes (the ones held by the centre grasp or on sampled actions left
out: other rules), by goal receptacle, beside s139's failures.

    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py           # 4.0e7-4.3e7, its own starts
    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py h2_48e6   # 4.8e7-5.1e7, Habitat 2.0's spawn
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "place_gamma"))
from nobase_receptacles import receptacles  # noqa: E402

SETS = {  # suffix: (seeds, spawn rule, a JSON holding s139's outcomes, its field holding them)
    "40e6": (
        (40_000_000, 41_000_000, 42_000_000, 43_000_000),
        "within",
        HERE.parent / "place_from_base" / "place_nobase_fresh_s139_ft_40e6.json",
        None,  # its own
    ),
    "h2_48e6": (
        (48_000_000, 49_000_000, 50_000_000, 51_000_000),
        "habitat2",
        HERE.parent / "place_nobase_learner" / "place_nobase_wide256_s169_ft_h2_48e6.json",
        "against",
    ),
}


def main(suffix: str) -> None:
    if suffix not in SETS:
        sys.exit(f"union.py: SUFFIX {suffix!r} not known; use one of {sorted(SETS)}")
    seeds, rule, s139_path, field = SETS[suffix]
    s139_data = json.loads(s139_path.read_text())
    s139 = (s139_data[field] if field else s139_data)["outcomes"]
    outcomes = [s139]  # counted once: its own JSON is left out below
    for p in sorted(HERE.parent.glob(f"*/*_{suffix}.json")):
        if "centre" in p.name or "sampled" in p.name or p.parent == HERE or p == s139_path and not field:
            continue
        o = json.loads(p.read_text())["outcomes"]
        if len(o) == 800:
            outcomes.append(o)
    solved_by = [sum(o[i] for o in outcomes) for i in range(800)]
    goals = [r for r, _ in receptacles(seeds=seeds, rule=rule)]
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
    main(sys.argv[1] if len(sys.argv) > 1 else "40e6")
