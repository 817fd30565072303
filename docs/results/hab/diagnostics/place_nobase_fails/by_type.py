"""The no-base place's success by the held object's type, from `place_from_base/evaluate.sh` outputs.

    python docs/results/hab/diagnostics/place_nobase_fails/by_type.py > by_type.txt
    python docs/results/hab/diagnostics/place_nobase_fails/by_type.py JSON SEEDS [JSON SEEDS...]

Without arguments, s139's three sets of 800 (`place_from_base/`); else each JSON with its comma-separated
seeds (200 episodes from each).

Each JSON's episodes are drawn again (resets only, no rollouts) to name the held object and the goal's
receptacle; the outcomes are the JSON's, for the policy it names and for its `against` (in
`place_from_base/` the no-base place shipped before the fifty-fifth session, then at
skills/checkpoints/place_nobase.pt, the path its JSONs name; in `place_nobase_tall/` s139). Tall objects:
half-height 0.085 m or more (`fails.TALL`: cracker box, mustard bottle, sugar box), the ones that topple
when set down tilted.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from fails import held_kind, per_set, redrawn, size_group  # (this folder)

HERE = Path(__file__).resolve().parent
RUNS = HERE.parent / "place_from_base"
SETS = {
    "the 800": ("place_nobase_fresh_s139_ft_800.json", (1_000_000, 2_000_000, 3_000_000, 4_000_000)),
    "3.2e7-3.5e7": ("place_nobase_fresh_s139_ft_32e6.json", (32_000_000, 33_000_000, 34_000_000, 35_000_000)),
    "4.0e7-4.3e7": ("place_nobase_fresh_s139_ft_40e6.json", (40_000_000, 41_000_000, 42_000_000, 43_000_000)),
}


def main(sets: dict[str, tuple[str, tuple[int, ...]]]) -> None:
    n, ok, before = Counter(), Counter(), Counter()
    for name, (path, seeds) in sets.items():
        d = json.loads(Path(path).read_text())
        types = [
            (
                held_kind(e.backend.spec, e.backend.spec.targets[0].handle),
                e.backend.spec.targets[0].goal_receptacle,
            )
            for e in redrawn(per_set(seeds))
        ]
        for (t, rec), a, b in zip(types, d["outcomes"], d["against"]["outcomes"], strict=True):
            group = size_group(t)
            for key in (t, group, f"{group}, fridge" if rec == "fridge" else f"{group}, not fridge"):
                n[key] += 1
                ok[key] += a
                before[key] += b
        a = d["against"]
        print(
            f"{name}: {d['policy']} {100 * d['success']:.2f}%, against {a['policy']} {100 * a['success']:.2f}%"
        )
    total = sum(n[g] for g in ("tall", "other"))
    print(f"\n{'':22s} episodes   {'policy':>7s}   {'against':>7s}   ({total} episodes)")
    for key in sorted(n, key=lambda k: (k not in ("tall", "other") and "," not in k, ok[k] / n[k])):
        print(f"{key:22s} {n[key]:8d}   {100 * ok[key] / n[key]:6.1f}%   {100 * before[key] / n[key]:6.1f}%")


if __name__ == "__main__":
    args = sys.argv[1:]
    if args:
        main(
            {
                p: (p, tuple(int(float(x)) for x in q.split(",")))
                for p, q in zip(args[::2], args[1::2], strict=True)
            }
        )
    else:
        main({name: (str(RUNS / path), seeds) for name, (path, seeds) in SETS.items()})
