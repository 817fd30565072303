"""Keep the episodes of a place start bank whose base must go round something to reach the goal.

    python -m skills.starts --task place --split train --episodes 5000 --seed 3200000 --out all.json
    python docs/results/hab/diagnostics/place_depth/detour_bank.py all.json detoured.json 0.25

An episode is kept where `skills.terms.Detour` (the base's shortest way over the free floor to where the
arm reaches the goal, less the straight line) is at least the given metres at its start. The output is
never overwritten.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from skills.terms import Detour


def main(src: str, out: str, least: float) -> None:
    if Path(out).exists():
        raise SystemExit(f"{out} exists; choose another path")
    detour, kept = Detour(), []
    episodes = json.loads(Path(src).read_text())
    for e in episodes:
        detour.reset(e["layout"], e["articulations"], e["targets"][0]["goal"])
        d = detour((e["robot"]["x"], e["robot"]["y"]))
        if d is not None and d >= least:
            kept.append(e)
    Path(out).write_text(json.dumps(kept))
    print(f"{len(kept)} of {len(episodes)} episodes with a detour of {least} m or more -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], float(sys.argv[3]))
