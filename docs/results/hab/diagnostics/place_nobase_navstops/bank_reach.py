"""How far a place start bank's goals lie beyond the arm's measured reach from its base poses.

    python docs/results/hab/diagnostics/place_nobase_navstops/bank_reach.py docs/results/starts/place_nav_heldout.json

Per start: the planar distance base -> goal minus `skills.spawn.reach_xy(goal height)` (the suction cup's
measured reach; the held object hangs below the cup and HAB's place tolerance is 0.15 m, so a goal a little
beyond it can still be placed), and the percentiles of the planar base -> goal distance. With `--task N` the same for the first N held-out episodes of the shipped
no-base place's task (the episodes `skills.evaluate skills/checkpoints/place_nobase.pt` runs), for comparison.
"""

import argparse
import json

import numpy as np

from skills.evaluate import EVAL_SEED, load
from skills.registry import make_env
from skills.spawn import reach_xy


def beyond_reach(x: float, y: float, goal) -> float:
    """Planar distance from a base at (x, y) to `goal`, minus the arm's measured reach at the goal's height."""
    return float(np.hypot(goal[0] - x, goal[1] - y) - reach_xy(float(goal[2])))


def summary(name: str, excess: np.ndarray) -> None:
    print(
        f"{name}: {len(excess)} starts; goal within reach {np.mean(excess <= 0):.1%}, "
        f"0-0.2 m beyond {np.mean((excess > 0) & (excess <= 0.2)):.1%}, "
        f"more than 0.2 m beyond {np.mean(excess > 0.2):.1%}; median {np.median(excess):+.2f} m"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank")
    parser.add_argument(
        "--task", type=int, default=0, help="also this many of the no-base place's task episodes"
    )
    args = parser.parse_args()
    starts = json.load(open(args.bank))
    bases = [(s["robot"]["x"], s["robot"]["y"]) for s in starts]
    goals = [s["targets"][0]["goal"] for s in starts]
    dist = [np.hypot(g[0] - x, g[1] - y) for (x, y), g in zip(bases, goals, strict=True)]
    print(
        f"base -> goal, planar: 10th / 50th / 90th percentile {np.percentile(dist, [10, 50, 90]).round(2)} m"
    )
    summary(args.bank, np.array([beyond_reach(x, y, g) for (x, y), g in zip(bases, goals, strict=True)]))
    if args.task:
        _, fields = load("skills/checkpoints/place_nobase.pt")
        env = make_env("place", **{**fields, "split": "heldout"})
        excess = []
        for k in range(args.task):
            env.reset(seed=EVAL_SEED + k)
            x, y, _ = env.backend.base_pose
            excess.append(beyond_reach(x, y, env.task.goal))
        env.close()
        summary(f"place task, no base, spawns within 1.0 m (held-out, {args.task})", np.array(excess))


if __name__ == "__main__":
    main()
