"""How many of a set of 800 episodes any no-base place solves: every `*_SUFFIX.json` under
docs/results/hab/diagnostics/ of 800 episodes (the ones held by the centre grasp or on sampled actions left
out: other rules), by goal receptacle, beside s139's failures.

    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py           # 4.0e7-4.3e7, its own starts
    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py h2_48e6   # 4.8e7-5.1e7, Habitat 2.0's spawn
    python docs/results/hab/diagnostics/place_nobase_ensemble/union.py h2_48e6 --per-policy

`--per-policy`: instead, each policy's success (%) by goal receptacle (s139 first, then the JSONs by name).
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


def policies(suffix: str) -> dict[str, list[bool]]:
    """Name -> outcomes of every policy evaluated on the set `suffix`: s139 first (counted once: its own
    JSON is left out), then each JSON of 800 episodes by path."""
    _, _, s139_path, field = SETS[suffix]
    s139_data = json.loads(s139_path.read_text())
    found = {"s139": (s139_data[field] if field else s139_data)["outcomes"]}
    for p in sorted(HERE.parent.glob(f"*/*_{suffix}.json")):
        if "centre" in p.name or "sampled" in p.name or p.parent == HERE or p == s139_path and not field:
            continue
        o = json.loads(p.read_text())["outcomes"]
        if len(o) == 800:
            found[p.stem.removesuffix(f"_{suffix}")] = o
    return found


def per_policy(found: dict[str, list[bool]], goals: list[str]) -> None:
    """Each policy's success (%) by goal receptacle, and over all 800."""
    names = sorted(set(goals))
    total = Counter(goals)
    print(f"{'policy':44s}" + "".join(f"{g[:8]:>9s}" for g in names) + f"{'all':>8s}")
    for name, o in found.items():
        placed = Counter(g for g, ok in zip(goals, o, strict=True) if ok)
        rates = "".join(f"{100 * placed[g] / total[g]:9.1f}" for g in names)
        print(f"{name[:44]:44s}{rates}{100 * sum(o) / len(o):8.2f}")


def main(suffix: str, by_policy: bool = False) -> None:
    if suffix not in SETS:
        sys.exit(f"union.py: SUFFIX {suffix!r} not known; use one of {sorted(SETS)}")
    seeds, rule, _, _ = SETS[suffix]
    found = policies(suffix)
    goals = [r for r, _ in receptacles(seeds=seeds, rule=rule)]
    if by_policy:
        per_policy(found, goals)
        return
    outcomes = list(found.values())
    s139 = found["s139"]
    solved_by = [sum(o[i] for o in outcomes) for i in range(800)]
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
    args = [a for a in sys.argv[1:] if a != "--per-policy"]
    main(args[0] if args else "40e6", by_policy="--per-policy" in sys.argv[1:])
