"""Where a pick fails from far starts (the NoNav case): its own task with spawns up to MAX_DIST m away.

    python docs/results/hab/diagnostics/pick_far/pick_far.py skills/checkpoints/pick.pt 60 8.0 > out.jsonl

One JSON line per held-out episode (`skills.evaluate`'s episodes, `EVAL_SEED + k`): success, failure
cause, steps, the start's distance from base to object, and at the episode's end the base-object and
EE-object distances, how far the object moved, and the EE's distance from its rest position (the arm
out of its rest pose while driving). A last line sums them up.
"""

import json
import sys

import numpy as np

from skills.evaluate import EVAL_SEED, load
from skills.registry import make_env
from skills.terms import ee_rest_dist


def main(policy: str, episodes: int, max_dist: float) -> None:
    p, fields = load(policy)
    env = make_env(p.skill, **{**fields, "split": "heldout", "spawn_max_dist": max_dist})
    rows = []
    for k in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        p.reset(env)
        b, target = env.backend, env.task.target
        obj0, base0 = b.object_pos(target), np.array(b.base_pose[:2])
        steps, done = 0, False
        while not done:
            obs, _, term, trunc, info = env.step(p.act(obs, env))
            steps, done = steps + 1, term or trunc
        stats = info["episode_stats"]
        obj, base = b.object_pos(target), np.array(b.base_pose[:2])
        row = {
            "k": k,
            "success": stats["success"] > 0.5,
            "cause": next((c[5:] for c, v in stats.items() if c.startswith("fail/") and v > 0.5), None),
            "steps": steps,
            "start_dist": round(float(np.hypot(*(obj0[:2] - base0))), 2),
            "end_base_obj": round(float(np.hypot(*(obj[:2] - base))), 2),
            "end_ee_obj": round(float(np.linalg.norm(b.ee_pos_world - obj)), 2),
            "obj_moved": round(float(np.linalg.norm(obj - obj0)), 2),
            "end_ee_rest": round(float(ee_rest_dist(b)), 2),
        }
        rows.append(row)
        print(json.dumps(row), flush=True)
    force = [r for r in rows if r["cause"] == "force"]
    driving = [r for r in force if r["end_ee_obj"] > 1.0]
    print(json.dumps({
        "policy": policy, "episodes": episodes, "max_dist": max_dist,
        "success": sum(r["success"] for r in rows), "force": len(force),
        "force_ee_over_1m_from_object": len(driving),
        "of_those_arm_out_of_rest": sum(r["end_ee_rest"] > 0.15 for r in driving),
        "median_start_dist_success": float(np.median([r["start_dist"] for r in rows if r["success"]] or [0])),
        "median_start_dist_failure": float(np.median([r["start_dist"] for r in rows if not r["success"]] or [0])),
    }))  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
