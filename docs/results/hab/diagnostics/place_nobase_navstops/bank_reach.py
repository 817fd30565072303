"""How far a place start bank's goals lie beyond the arm's measured reach from its base poses.

    python docs/results/hab/diagnostics/place_nobase_navstops/bank_reach.py docs/results/starts/place_nav_heldout.json

Per start: the planar distance base -> goal minus `skills.spawn.reach_xy(goal height)` (the suction cup's
measured reach; the held object hangs below the cup and HAB's place tolerance is 0.15 m, so a goal a little
beyond it can still be placed). With `--task N` the same for the first N held-out place task episodes
(the episodes of `skills.evaluate`), for comparison.
"""

import argparse
import json

import numpy as np

from skills.evaluate import EVAL_SEED
from skills.registry import make_env
from skills.spawn import reach_xy


def summary(name: str, excess: np.ndarray) -> None:
    print(
        f"{name}: {len(excess)} starts; goal within reach {np.mean(excess <= 0):.1%}, "
        f"0-0.2 m beyond {np.mean((excess > 0) & (excess <= 0.2)):.1%}, "
        f"more than 0.2 m beyond {np.mean(excess > 0.2):.1%}; median {np.median(excess):+.2f} m"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bank")
    parser.add_argument("--task", type=int, default=0, help="also this many place task episodes (no base)")
    args = parser.parse_args()
    excess = []
    for start in json.load(open(args.bank)):
        goal, robot = start["targets"][0]["goal"], start["robot"]
        excess.append(np.hypot(goal[0] - robot["x"], goal[1] - robot["y"]) - reach_xy(goal[2]))
    summary(args.bank, np.array(excess))
    if args.task:
        env = make_env("place", split="heldout", base_movement=False, spawn_max_dist=1.0)
        excess = []
        for k in range(args.task):
            env.reset(seed=EVAL_SEED + k)
            (x, y, _), goal = env.backend.base_pose, env.task.goal
            excess.append(np.hypot(goal[0] - x, goal[1] - y) - reach_xy(float(goal[2])))
        env.close()
        summary(f"place task, no base, spawns within 1.0 m (held-out, {args.task})", np.array(excess))


if __name__ == "__main__":
    main()
