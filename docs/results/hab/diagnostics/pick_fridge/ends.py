"""Where fridge picks that start beside the fridge on its door's side end: in front of it or not.

    python docs/results/hab/diagnostics/pick_fridge/ends.py docs/results/hab/diagnostics/pick_fridge/starts_*.txt

Reads the per-episode lines `starts.py` writes (start and end in the fridge's frame) and counts, per file,
the door-side episodes that end with the base in front of the fridge's opening (more than 0.8 m out of
its centre, within 0.4 m of its axis: round the open door), and their outcomes.
"""

from __future__ import annotations

import re
import sys
from collections import Counter

LINE = re.compile(r"^\s*\d+\s+(\S+)\s+start .*beside, door side\s+end \(\s*([-\d.]+),\s*([-\d.]+)\)")


def main(paths: list[str]) -> None:
    for path in paths:
        ends, outcomes = 0, Counter()
        total = 0
        for line in open(path):
            m = LINE.match(line)
            if not m:
                continue
            total += 1
            x, y = float(m.group(2)), float(m.group(3))
            if x > 0.8 and abs(y) < 0.4:
                ends += 1
                outcomes[m.group(1)] += 1
        print(f"{path}: {ends} of {total} door-side starts end in front of the opening {dict(outcomes)}")


if __name__ == "__main__":
    main(sys.argv[1:])
