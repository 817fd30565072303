"""Nav calls of a nav_stops.py output by start distance and kind: how many never called stop (ran to the
300-step limit), how many stopped, and how far from the goal (planar / on foot) they ended."""

import json
import sys

import numpy as np

calls = [json.loads(line) for line in open(sys.argv[1])]
print(f"{len(calls)} nav calls in {len({c['index'] for c in calls})} episodes")
bins = [(0, 2.0), (2.0, 3.0), (3.0, 100.0)]
for kind in ("first", "repeat"):
    for lo, hi in bins:
        sel = [
            c
            for c in calls
            if c["repeat"] == (kind == "repeat")
            and c["start_planar"] is not None
            and lo <= c["start_planar"] < hi
        ]
        if not sel:
            continue
        no_stop = [c for c in sel if not c["done"]]
        end = np.array([c["stop_planar"] for c in sel])
        across = [c for c in sel if c["stop_geo"] is not None and c["stop_geo"] - c["stop_planar"] > 0.5]
        steps = sum(c["steps"] for c in sel)
        print(
            f"{kind:6s} start {lo:.0f}-{hi:.0f} m: {len(sel):4d} calls, never stopped {len(no_stop):4d} "
            f"({len(no_stop) / len(sel):.0%}), ended > 2 m {int((end >= 2.0).sum()):3d}, across furniture "
            f"{len(across):3d}, steps {steps}"
        )
