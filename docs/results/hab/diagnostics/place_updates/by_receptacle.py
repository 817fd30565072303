"""Place outcomes by goal receptacle and by the way to the goal, for evaluate JSONs of the 800.

    python docs/results/hab/diagnostics/place_updates/by_receptacle.py 200 1000000,2000000,3000000,4000000 \
        docs/results/hab/diagnostics/place_updates/scripted_800.json

For each held-out episode (seed + k, as `skills.evaluate` draws them): its goal receptacle and whether its
way is straight (a detour under 0.25 m; both from `place_depth/detours.py`'s `episode_rows`); then each
policy's (and its `against` policy's) successes per receptacle, on the straight starts and on all.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "place_depth"))
from detours import episode_rows, outcomes  # noqa: E402


def main(argv: list[str]) -> None:
    n, seeds = int(argv[0]), [int(s) for s in argv[1].split(",")]
    rows = episode_rows(n, seeds)
    policies = outcomes(argv[2:])
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
