"""Where a pick fails from far starts (the NoNav case): its own task with spawns up to MAX_DIST m away.

    python docs/results/hab/diagnostics/pick_far/pick_far.py skills/checkpoints/pick.pt 60 8.0 > out.jsonl

One JSON line per held-out episode (`skills.evaluate`'s episodes, `EVAL_SEED + k`): success, failure
cause, steps, the start's distance from base to object, and at the episode's end the base-object and
EE-object distances, how far the object moved, and the EE's distance from its rest position (the arm
out of its rest pose while driving). A last line sums them up.
"""

import json
import sys
from collections.abc import Iterator
from typing import Any, NamedTuple

import numpy as np

from skills.evaluate import EVAL_SEED, load
from skills.registry import make_env
from skills.terms import ee_rest_dist


class Episode(NamedTuple):
    k: int
    env: Any
    success: bool
    cause: str | None
    steps: int
    obj0: np.ndarray  # the object's start position
    base0: np.ndarray  # the base's start position (x, y)


def far_episodes(policy: str, episodes: int, max_dist: float) -> Iterator[Episode]:
    """Runs `policy` on its task's held-out episodes `EVAL_SEED + k` with spawns up to `max_dist` m away,
    yielding each at its end (the env still holds its last state)."""
    p, fields = load(policy)
    env = make_env(p.skill, **{**fields, "split": "heldout", "spawn_max_dist": max_dist})
    for k in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        p.reset(env)
        b = env.backend
        obj0, base0 = b.object_pos(env.task.target), np.array(b.base_pose[:2])
        steps, done = 0, False
        while not done:
            obs, _, term, trunc, info = env.step(p.act(obs, env))
            steps, done = steps + 1, term or trunc
        stats = info["episode_stats"]
        cause = next((c[5:] for c, v in stats.items() if c.startswith("fail/") and v > 0.5), None)
        yield Episode(k, env, stats["success"] > 0.5, cause, steps, obj0, base0)


def main(policy: str, episodes: int, max_dist: float) -> None:
    rows = []
    for k, env, success, cause, steps, obj0, base0 in far_episodes(policy, episodes, max_dist):
        b, target = env.backend, env.task.target
        obj, base = b.object_pos(target), np.array(b.base_pose[:2])
        row = {
            "k": k,
            "success": success,
            "cause": cause,
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
    print(
        json.dumps(
            {
                "policy": policy,
                "episodes": episodes,
                "max_dist": max_dist,
                "success": sum(r["success"] for r in rows),
                "force": len(force),
                "force_ee_over_1m_from_object": len(driving),
                "of_those_arm_out_of_rest": sum(r["end_ee_rest"] > 0.15 for r in driving),
                "median_start_dist_success": float(
                    np.median([r["start_dist"] for r in rows if r["success"]] or [0])
                ),
                "median_start_dist_failure": float(
                    np.median([r["start_dist"] for r in rows if not r["success"]] or [0])
                ),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
