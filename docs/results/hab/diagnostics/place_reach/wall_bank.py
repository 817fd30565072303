"""Keep the episodes of a place start bank whose spawn has a wall between the base and the goal.

    python -m skills.starts --task place --split train --episodes 5000 --seed 3300000 --out all.json
    python docs/results/hab/diagnostics/place_reach/wall_bank.py all.json walls.json

`reach.kind` decides ("wall between": an apartment wall crosses the straight line from the base to the
goal, the goal not inside furniture seen from its side). No learned place has placed one such held-out
start (0 of 29 of the 800, ten policies; `reach.txt`). The output is never overwritten.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reach import kind  # noqa: E402


def main(src: str, out: str) -> None:
    if Path(out).exists():
        raise SystemExit(f"{out} exists; choose another path")
    episodes = json.loads(Path(src).read_text())
    kept = [
        e
        for e in episodes
        if kind(e["layout"], np.array([e["robot"]["x"], e["robot"]["y"]]), np.array(e["targets"][0]["goal"]))
        == "wall between"
    ]
    Path(out).write_text(json.dumps(kept))
    print(f"{len(kept)} of {len(episodes)} episodes with a wall between the base and the goal -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
