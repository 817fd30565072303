"""A pick policy on its held-out episodes: outcome by the receptacle the object starts on.

    python docs/results/hab/diagnostics/pick_fridge/receptacles.py skills/checkpoints/pick.pt 200 > out.jsonl

One JSON line per episode (seed 1,000,000 + k, the episodes of `skills.evaluate`, unless a third argument
gives the first seed): success, failure causes, the object's receptacle, the planar distance base ->
object at the start, the object's height and the steps.
"""

import json
import sys

import numpy as np

from skills.evaluate import EVAL_SEED, failure_causes, load
from skills.registry import make_env
from tpsrl.engine.inference import single_thread_acting


def play(env, skill_policy, obs) -> tuple[int, dict]:  # noqa: ANN001
    """Runs a reset episode to its end: (steps, the last step's info)."""
    skill_policy.reset(env)
    done, steps = False, 0
    while not done:
        obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
        done, steps = terminated or truncated, steps + 1
    return steps, info


def main(policy: str, episodes: int, seed: int = EVAL_SEED) -> None:
    single_thread_acting()
    skill_policy, fields = load(policy)
    env = make_env(skill_policy.skill, **{**fields, "split": "heldout"})
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        b = env.backend
        handle = b.spec.targets[0].handle
        receptacle = next(o.receptacle for o in b.spec.objects if o.handle == handle)
        x, y, _ = b.base_pose
        pos = b.object_pos(handle)
        steps, info = play(env, skill_policy, obs)
        stats = info["episode_stats"]
        row = {
            "k": k,
            "success": stats.get("success", 0.0) > 0.5,
            "cause": failure_causes(stats),
            "receptacle": receptacle,
            "d": float(np.hypot(pos[0] - x, pos[1] - y)),
            "z": float(pos[2]),
            "steps": steps,
        }
        print(json.dumps(row), flush=True)
    env.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), *(int(a) for a in sys.argv[3:4]))
