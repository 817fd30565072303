"""Success of a pick's fridge episodes by where the robot starts: in front of the fridge's opening (its
base centre over 0.35 m out from the front face) or beside it. Reads `where_it_stops.py`'s lines.

    python docs/results/hab/diagnostics/pick_fridge_depth/sectors.py <where_it_stops.jsonl>...
"""

import json
import sys

for path in sys.argv[1:]:
    rows = [json.loads(line) for line in open(path)]
    parts = {
        "front": [r for r in rows if r["start"][0] > 0.35],
        "beside": [r for r in rows if r["start"][0] <= 0.35],
    }
    cells = [f"{k} {sum(r['ok'] for r in v)} of {len(v)}" for k, v in parts.items()]
    stuck = [r for r in parts["beside"] if not r["ok"] and r["end"][0] <= 0.35]
    print(f"{path}: {', '.join(cells)}; failures beside that end beside: {len(stuck)}")
