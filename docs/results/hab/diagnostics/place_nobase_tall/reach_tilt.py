"""Whether the reach sets how tilted the no-base place lets objects go: `tilt.py`'s release angles by the
goal's distance from the base.

    python docs/results/hab/diagnostics/place_nobase_tall/reach_tilt.py TILT.txt SEED > OUT.txt

TILT.txt: `place_nobase_fails/tilt.py POLICY SEED N` output. Each episode SEED + k is drawn again (a reset
only) for the goal's planar distance from the base centre and its height above the floor; prints, by
distance band and by height band, the episodes let go, their median release angle, the share let go 20
degrees or more off the vertical and the share placed, for tall objects and the others.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "place_nobase_fails"))
from fails import redrawn, size_group  # noqa: E402

ROW = re.compile(r"^\s*(\d+) (ok  |FAIL) (\S+)\s+tilt at release\s+([0-9.]+) dz")
BANDS = {
    "distance (m)": (1, ((0.0, 0.6), (0.6, 0.8), (0.8, 1.0), (1.0, 9.9))),
    "height (m)": (2, ((0.0, 0.5), (0.5, 0.8), (0.8, 1.1), (1.1, 9.9))),
}
"""Columns of a table row (group, distance, height, angle, placed) and their bands."""


def main(tilt_path: str, seed: int) -> None:
    rows = [m.groups() for line in Path(tilt_path).read_text().splitlines() if (m := ROW.match(line))]
    table = []
    for (_, outcome, kind, angle), env in zip(rows, redrawn(seed + int(r[0]) for r in rows), strict=True):
        x, y, _ = env.backend.base_pose
        goal = np.asarray(env.task.goal)
        dist = float(np.hypot(goal[0] - x, goal[1] - y))
        table.append((size_group(kind), dist, float(goal[2]), float(angle), outcome == "ok  "))
    print(f"{tilt_path}: {len(table)} episodes let go\n")
    for title, (col, bands) in BANDS.items():
        print(f"{'':6s} {title:13s} {'let go':>6s} {'median deg':>10s} {'>= 20 deg':>9s} {'placed':>7s}")
        for group in ("tall", "other"):
            for lo, hi in bands:
                sel = [r for r in table if r[0] == group and lo <= r[col] < hi]
                if not sel:
                    continue
                ang = np.array([r[3] for r in sel])
                print(
                    f"{group:6s} {lo:.1f}-{hi:.1f}{'':6s} {len(sel):6d} {np.median(ang):10.1f} "
                    f"{100 * np.mean(ang >= 20):8.1f}% {100 * np.mean([r[4] for r in sel]):6.1f}%"
                )
        print()
    d, a = np.array([r[1] for r in table]), np.array([r[3] for r in table])
    print(f"Spearman rank correlation of distance and angle, all let go: {_spearman(d, a):+.2f}")
    h = np.array([r[2] for r in table])
    print(f"the same of the goal's height and angle: {_spearman(h, a):+.2f}")


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    ra, rb = np.argsort(np.argsort(a)), np.argsort(np.argsort(b))
    return float(np.corrcoef(ra, rb)[0, 1])


if __name__ == "__main__":
    main(sys.argv[1], int(float(sys.argv[2])))
