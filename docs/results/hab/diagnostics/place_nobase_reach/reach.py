"""place_nobase on its held-out episodes: outcome against how far the goal lies beyond the arm's reach.

    python docs/results/hab/diagnostics/place_nobase_reach/reach.py skills/checkpoints/place_nobase.pt 200 > out.jsonl

`shipped_place_nobase_200.jsonl` is the no-base place shipped until the twenty-fourth session
(`git show 198771a:skills/checkpoints/place_nobase.pt`).

One JSON line per episode (seed 1,000,000 + k, the episodes of `skills.evaluate`): success, failure causes,
the planar distance base -> goal `d` at the start, the goal's height `z`, `reach` = `skills.spawn.reach_xy(z)`
(the suction cup's measured reach; the held object hangs below the cup, so a goal a little beyond it can
still be placed), steps, and the closest the held object came to its goal.
"""

import json
import sys

import numpy as np

from skills.evaluate import EVAL_SEED, failure_causes, load
from skills.registry import make_env
from skills.spawn import reach_xy
from tpsrl.engine.inference import single_thread_acting


def main(policy: str, episodes: int) -> None:
    single_thread_acting()
    skill_policy, fields = load(policy)
    env = make_env(skill_policy.skill, **{**fields, "split": "heldout"})
    for k in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        b, task = env.backend, env.task
        x, y, _ = b.base_pose
        goal = task.goal
        skill_policy.reset(env)
        done, steps, closest = False, 0, float("inf")
        while not done:
            obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
            done, steps = terminated or truncated, steps + 1
            if b.held == task.target:
                closest = min(closest, float(np.linalg.norm(b.object_pos(task.target) - goal)))
        stats = info["episode_stats"]
        row = {
            "k": k,
            "success": stats.get("success", 0.0) > 0.5,
            "cause": failure_causes(stats),
            "d": float(np.hypot(goal[0] - x, goal[1] - y)),
            "z": float(goal[2]),
            "reach": reach_xy(float(goal[2])),
            "steps": steps,
            "closest_obj_goal": closest,
        }
        print(json.dumps(row), flush=True)
    env.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
