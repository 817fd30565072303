"""Two no-base place evaluations of the same episodes side by side, by tall and other objects.

    python docs/results/hab/diagnostics/place_nobase_tall/pair.py A.json B.json SEEDS

A and B: `evaluate.sh` outputs over the comma-separated SEEDS (200 episodes from each). Prints, per group and
over all, each one's successes, the episodes only A / only B placed and the exact McNemar p.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "place_nobase_fails"))
from fails import held_kind, per_set, redrawn, size_group  # noqa: E402

from skills.evaluate import mcnemar  # noqa: E402


def main(a_path: str, b_path: str, seeds: list[int]) -> None:
    groups = [
        size_group(held_kind(e.backend.spec, e.backend.spec.targets[0].handle))
        for e in redrawn(per_set(seeds))
    ]
    a, b = ([bool(x) for x in json.loads(Path(p).read_text())["outcomes"]] for p in (a_path, b_path))
    print(f"A {a_path}\nB {b_path}\n{'':8s} episodes      A      B   only A / only B, p")
    for name in ("tall", "other", "all"):
        idx = [i for i, g in enumerate(groups) if name in (g, "all")]
        ga, gb = [a[i] for i in idx], [b[i] for i in idx]
        only_a, only_b, p = mcnemar(ga, gb)
        print(f"{name:8s} {len(idx):8d} {sum(ga):6d} {sum(gb):6d}   {only_a:6d} / {only_b}, p {p:.2g}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], [int(float(x)) for x in sys.argv[3].split(",")])
