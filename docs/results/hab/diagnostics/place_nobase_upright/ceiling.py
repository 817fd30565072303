"""How far the no-base place can go on its own starts, from `upright.py`'s output (fifty-eighth session).

    python docs/results/hab/diagnostics/place_nobase_upright/ceiling.py UPRIGHT.txt [TILT.txt]

UPRIGHT.txt: `upright.py SEED EPISODES TILT.txt` (with the learned place's outcomes). Sorts each episode by
object size (tall: half-height >= 0.085 m), goal height (under / from 0.8 m) and what the offline arm found:
a pose that holds the object upright (under 15 degrees) at the goal, only tilted poses ("tilted only"), or
no pose at all; prints the learned place's successes in each, and what it would place if it placed every
episode that has an upright pose or is a short object, keeping its own outcomes on the rest (tall objects
that can only be let go tilted, goals no pose reaches). With TILT.txt (`place_nobase_fails/tilt.py`'s output
for another policy on the same episodes) that policy's outcomes instead.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

from upright import read_tilt, size_group  # (this folder; size_group from place_nobase_fails/fails.py)

ROW = re.compile(
    r"\s*(\d+) (\S+)\s+goal z ([\d.]+)\s+free\s+(\S+)\s+upright\s+(\S+)\s+learned (ok|FAIL)\s+release \S+"
)


def main(path: str, tilt_path: str | None = None) -> None:
    other = read_tilt(tilt_path) if tilt_path else None
    n, ok = Counter(), Counter()
    for line in open(path):
        m = ROW.match(line)
        if not m:
            continue
        k, kind, z, free, up, outcome = m.groups()
        if other is not None:
            outcome = "ok" if other[int(k)][0] else "FAIL"
        reach = "none" if free == "none" and up == "none" else "tilted only"
        if up != "none" and float(up) < 15.0:
            reach = "upright"
        key = (size_group(kind), "from 0.8 m" if float(z) >= 0.8 else "under 0.8 m", reach)
        n[key] += 1
        ok[key] += outcome == "ok"
    total, placed = sum(n.values()), sum(ok.values())
    print(f"{'':5s}  {'goal':11s}  {'arm pose':11s}  episodes  placed")
    for key in sorted(n):
        print(f"{key[0]:5s}  {key[1]:11s}  {key[2]:11s}  {n[key]:8d}  {ok[key]:6d}")
    hard = [k for k in n if k[2] == "none" or (k[0] == "tall" and k[2] == "tilted only")]
    bound = total - sum(n[k] - ok[k] for k in hard)
    print(f"\nplaced {placed} of {total} ({100 * placed / total:.1f}%)")
    print(
        f"placing every other episode, its own outcomes kept on the {sum(n[k] for k in hard)} with no pose or "
        f"a tall object only tilted: {bound} of {total} ({100 * bound / total:.1f}%)"
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
