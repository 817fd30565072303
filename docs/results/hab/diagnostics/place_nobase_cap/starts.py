"""Where the no-base place's own starts put the robot, and what it places from each kind of start.

    python docs/results/hab/diagnostics/place_nobase_cap/starts.py > docs/results/hab/diagnostics/place_nobase_cap/starts.txt

s139 (the shipped no-base place) on the 2400 episodes never chosen on (4.0e7-5.1e7 x 200, its own starts:
within 1.0 m, every goal once; HAB's place and force rules), its outcomes read from the `evaluate.sh`
JSONs named in RUNS. Each start falls in the first of `place_reach/reach.py`'s kinds: "beside or behind"
(the goal is inside the fridge or under a shelf top and the base is level with or behind its front, where
the arm cannot reach through its sides), "wall between" (an apartment wall on the straight line), then by
how far the goal lies beyond the arm's planar reach at its height. Goals in the fridge are split again by
where the base starts in the fridge's frame: in front of it (within its width), in front but off to the
side of the door's hinge (the open door stands between) or of the other side, or beside or behind it.
Last, the tall objects (`place_nobase_fails/fails.size_group`) and the others apart, by kind of start.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

DIAG = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(DIAG / "place_reach"))
sys.path.insert(0, str(DIAG / "place_nobase_fails"))
from fails import held_kind, per_set, redrawn, size_group  # noqa: E402
from reach import KINDS, kind  # noqa: E402

from skills.terms import enclosures  # noqa: E402

POLICY = "skills/checkpoints/place_nobase.pt"
RUNS = (  # (JSON, which result in it is s139's, its seeds)
    ("place_from_base/place_nobase_fresh_s139_ft_40e6.json", "policy", (40, 41, 42, 43)),
    ("place_nobase_tall/place_nobase_44e6.json", "policy", (44, 45, 46, 47)),
    ("place_nobase_h2/place_nobase_h2_s150_ft_48e6.json", "against", (48, 49, 50, 51)),
)


def fridge_side(layout: int, base_xy: np.ndarray, goal: np.ndarray) -> str:
    """Where the base starts against the fridge that holds `goal`: in its local frame (front = +x)."""
    f = next(f for f in enclosures(layout, goal) if f.kind == "fridge")
    x, y = f.to_local(*base_xy)
    if x <= f.spec.depth / 2:
        return "fridge, beside or behind"
    if abs(y) <= f.spec.width / 2:
        return "fridge, in front"
    # the door hangs on the fridge's +y edge (`tpsrl.sim.mujoco.scene`) and swings open toward the front
    return f"fridge, off to the {'door' if y > 0 else 'open'} side"


def main() -> None:
    outcomes: list[bool] = []
    seeds: list[int] = []
    for path, which, sets in RUNS:
        d = json.loads((DIAG / path).read_text())
        result = d if which == "policy" else d["against"]
        assert result["policy"].endswith(("place_nobase.pt", "place_nobase_fresh_s139_ft")), result["policy"]
        outcomes += result["outcomes"]
        seeds += per_set([s * 1_000_000 for s in sets])
    n, ok = Counter(), Counter()
    for env, won in zip(redrawn(seeds), outcomes, strict=True):
        spec = env.backend.spec
        target = spec.targets[0]
        base, goal = np.array(env.backend.base_pose[:2]), np.array(target.goal)
        start, group = kind(spec.layout, base, goal), size_group(held_kind(spec, target.handle))
        keys = [start, group, f"{group}, {start}"]
        if target.goal_receptacle == "fridge":
            keys.append(fridge_side(spec.layout, base, goal))
        for key in keys:
            n[key] += 1
            ok[key] += won
    total, placed = len(outcomes), sum(outcomes)
    print(
        f"s139 ({POLICY}) on {total} episodes (4.0e7-5.1e7): placed {placed} ({100 * placed / total:.2f}%)\n"
    )
    print(f"{'start':36s} {'episodes':>8s} {'placed':>7s}")
    for key in (
        *KINDS,
        "fridge, in front",
        "fridge, off to the door side",
        "fridge, off to the open side",
        "fridge, beside or behind",
        "tall",
        *(f"tall, {k}" for k in KINDS),
        "other",
        *(f"other, {k}" for k in KINDS),
    ):
        if n[key]:
            print(f"{key:36s} {n[key]:8d} {ok[key]:7d}  ({100 * ok[key] / n[key]:5.1f}%)")
    solvable = total - n["beside or behind"] - n["wall between"]
    won = placed - ok["beside or behind"] - ok["wall between"]
    print(
        f"\nwithout the beside-or-behind and wall-between starts: {won} of {solvable} ({100 * won / solvable:.2f}%)"
    )


if __name__ == "__main__":
    main()
