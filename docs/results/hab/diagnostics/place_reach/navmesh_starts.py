"""Which of the 800 place starts (sets 1e6-4e6 x 200, HAB's distance rule, `skill.spawn_rule=within`)
habitat-sim could not have drawn, and how the shipped place (s103) did on them.

    python docs/results/hab/diagnostics/place_reach/navmesh_starts.py > docs/results/hab/diagnostics/place_reach/navmesh_starts.txt

A start is one habitat-sim could draw where it lies within 0.25 m (the spawn's position noise) of a cell of
`skills.spawn._navmesh_disk` (the free floor joined to the cell nearest the goal inside the 2 m circle:
`get_random_navigable_point_near`'s walk). Counted by `reach.kind` and by s103's outcome on its mean (the
`against` of `place_memory/place_again_s120_800.json`).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from skills.registry import make_env
from skills.spawn import _navmesh_disk
from tpsrl.sim.mujoco import layout as L

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from reach import HAB, SEEDS, kind  # noqa: E402


def main() -> None:
    result = json.loads((HERE.parent / "place_memory/place_again_s120_800.json").read_text())["against"]
    assert result["policy"] == "skills/checkpoints/place.pt"
    ok = result["outcomes"]
    env = make_env("place", **HAB)
    kinds, placed, i = Counter(), Counter(), 0
    for seed in SEEDS:
        for k in range(200):
            env.reset(seed=seed + k)
            spec = env.backend.spec
            goal, xy = np.array(spec.targets[0].goal), np.array(env.backend.base_pose[:2])
            reach = _navmesh_disk(spec.layout, round(float(goal[0]), 4), round(float(goal[1]), 4), 2.0)
            ii, jj = np.nonzero(reach)
            drawable = bool(
                np.min(np.hypot((ii + 0.5) * L.GRID_RES - xy[0], (jj + 0.5) * L.GRID_RES - xy[1])) <= 0.25
            )
            kinds[(kind(spec.layout, xy, goal), drawable)] += 1
            placed[drawable] += ok[i]
            i += 1
    env.close()
    for (name, drawable), n in sorted(kinds.items()):
        print(f"{name:18s} {'habitat-sim could draw it' if drawable else 'habitat-sim would not':28s} {n:4d}")
    out = sum(n for (_, d), n in kinds.items() if not d)
    print(
        f"s103 placed {placed[False]} of the {out} starts habitat-sim would not draw, {placed[True]} of the other {800 - out}"
    )


if __name__ == "__main__":
    main()
