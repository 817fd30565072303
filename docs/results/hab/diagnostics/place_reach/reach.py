"""Which of the 800 place episodes (sets 1e6-4e6 x 200, HAB's rules) start where the arm already reaches
the goal, and the shipped places' success on those and on the rest.

    python docs/results/hab/diagnostics/place_reach/reach.py [JSON...] > docs/results/hab/diagnostics/place_reach/reach.txt

JSONs (evaluate outputs of other with-base places on the same 800) add a table: each policy's success by
the kind of its spawn.

Each spawn falls in the first of: "beside or behind" (furniture encloses the goal: the fridge, a shelf
with a top above it, and the base is not in front of it, where the arm cannot reach through its sides or
back: the test of the detour term's reach seeds, `skills.terms`), "wall between", then by how far the goal
lies beyond the arm's planar reach at its height (`skills.spawn.reach_xy`): "within reach", "<= 0.15 m
beyond" (the place rule's tolerance), "farther". The no-base place's episodes are its own (spawns within 1.0 m,
its fields), the place's HAB's (within 2.0 m); each policy's outcomes come from the evaluate JSONs named
below (the no-base place as the `against` of `place_books/nobase2_800.json`, the place, s103, as the
`against` of `place_memory/place_again_s120_800.json`, both on the 800 by HAB's rules).
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

import numpy as np

from skills.evaluate import load
from skills.registry import make_env
from skills.spawn import reach_xy
from skills.terms import _walls_between, enclosures

DIAG = Path(__file__).resolve().parents[1]
SEEDS = (1_000_000, 2_000_000, 3_000_000, 4_000_000)
HAB = {
    "release_speed": 0,
    "settle_speed": 0,
    "clear_dist": 0,
    "shut_tol": 0,
    "force_measure": "peak",
    "split": "heldout",
}
RUNS = (
    ("no-base place", "skills/checkpoints/place_nobase.pt", "place_books/nobase2_800.json"),
    ("place (s103)", "skills/checkpoints/place.pt", "place_memory/place_again_s120_800.json"),
)


KINDS = ("within reach", "<= 0.15 m beyond", "farther", "wall between", "beside or behind")


def kind(layout: int, base_xy: np.ndarray, goal: np.ndarray) -> str:
    if any(f.to_local(*base_xy)[0] <= f.spec.depth / 2 for f in enclosures(layout, goal)):
        return "beside or behind"
    if _walls_between(np.array([base_xy[0]]), np.array([base_xy[1]]), goal[:2])[0]:
        return "wall between"
    beyond = float(np.hypot(*(goal[:2] - base_xy))) - reach_xy(float(goal[2]))
    return "within reach" if beyond <= 0 else "<= 0.15 m beyond" if beyond <= 0.15 else "farther"


def rows(policy: str) -> list[tuple[str, str]]:
    """(goal receptacle, `kind` of the spawn) per episode, in evaluate's order."""
    _, fields = load(policy)
    env = make_env("place", **{**fields, **HAB})
    out = []
    for seed in SEEDS:
        for k in range(200):
            env.reset(seed=seed + k)
            spec = env.backend.spec
            target = spec.targets[0]
            out.append(
                (
                    target.goal_receptacle,
                    kind(spec.layout, np.array(env.backend.base_pose[:2]), np.array(target.goal)),
                )
            )
    env.close()
    return out


def main(others: list[str]) -> None:
    for name, policy, path in RUNS:
        result = json.loads((DIAG / path).read_text())["against"]
        assert result["policy"] == policy, (result["policy"], policy)
        ok = result["outcomes"]
        eps = rows(policy)
        print(f"{name} ({policy}, {100 * result['success']:.2f}% of {len(ok)})")
        for label in KINDS:
            idx = [i for i, (_, r) in enumerate(eps) if r == label]
            won = sum(ok[i] for i in idx)
            per = Counter(eps[i][0] for i in idx)
            print(
                f"  {label:18s} {len(idx):4d} episodes, placed {won:4d} ({100 * won / max(len(idx), 1):5.1f}%)  {dict(per.most_common(4))}"
            )
        fr = [i for i, (rec, _) in enumerate(eps) if rec == "fridge"]
        print(
            "  fridge goals:",
            {
                k: f"{sum(ok[i] for i in fr if eps[i][1] == k)} of {sum(eps[i][1] == k for i in fr)}"
                for k in KINDS
            },
        )

    if others:
        eps = rows(RUNS[1][1])
        print(
            f"\nwith-base places on the 800 by spawn: {'  '.join(f'{k} ({sum(r == k for _, r in eps)})' for k in KINDS)}"
        )
        for path in others:
            d = json.loads(Path(path).read_text())
            ok = d["outcomes"]
            cells = [sum(ok[i] for i, (_, r) in enumerate(eps) if r == k) for k in KINDS]
            name = d["policy"][-32:] + (" sampled" if d.get("sampled") else "")
            print(f"  {name:40s} {100 * d['success']:6.2f}%  " + "  ".join(f"{c:4d}" for c in cells))


if __name__ == "__main__":
    main(sys.argv[1:])
