"""How a place policy ends its own task's held-out episodes by HAB's place rule, and what its timeouts were doing.

    python docs/results/hab/diagnostics/timeouts/place_timeouts.py skills/checkpoints/place.pt 200 > place.jsonl
    python docs/results/hab/diagnostics/timeouts/place_timeouts.py --summary place.jsonl

The place task's held-out episodes from the default evaluation seed (the skills table's 200), HAB's
spawns within 2 m, 300 steps, HAB's place rule (no throw or settle rule, no clearance) and force rule
(`force_measure=peak`), whatever the policy was trained with. One JSON line per episode: the outcome and
its causes, the object's closest approach to its goal while held, its distance at the (last) release and
at the end, whether it was held at the end, and the end effector's distance from rest at the end.
`--summary` sorts each file's timeouts into one kind each: never let go, away from the goal (never within
0.15 m while held); never let go, though within 0.15 m; let go at the goal, object then moved 0.15 m or
more off it; object at the goal, arm not back at rest.
"""

from __future__ import annotations

import json
import sys

import numpy as np
from pick_timeouts import episodes, main  # beside this file

from skills.evaluate import failure_causes
from skills.terms import ee_rest_dist

FIELDS = {
    "split": "heldout",
    "spawn_max_dist": 2.0,
    "max_steps": 300,
    "force_measure": "peak",
    "release_speed": 0.0,
    "settle_speed": 0.0,
    "clear_dist": 0.0,
}
GOAL_TOL = 0.15  # m: HAB's place tolerance


def trace(policy: str, count: int) -> None:
    for k, env, skill_policy, obs in episodes(policy, count, FIELDS):
        b = env.backend
        target, goal = b.spec.targets[0].handle, np.array(b.spec.targets[0].goal)
        closest, release, release_dist, steps, done = np.inf, None, None, 0, False
        while not done:
            held = b.held == target
            obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
            steps, done = steps + 1, terminated or truncated
            dist = float(np.linalg.norm(b.object_pos(target) - goal))
            if b.held == target:
                closest = min(closest, dist)
            elif held:
                release, release_dist = steps, round(dist, 3)
        stats = info["episode_stats"]
        row = {
            "k": k,
            "ok": stats.get("success", 0.0) > 0.5,
            "causes": failure_causes(stats),
            "steps": steps,
            "closest_held": round(closest, 3),
            "release": release,
            "release_dist": release_dist,
            "end_dist": round(float(np.linalg.norm(b.object_pos(target) - goal)), 3),
            "held_end": b.held == target,
            "ee_rest": round(float(ee_rest_dist(b)), 3),
        }
        print(json.dumps(row), flush=True)


def timeout_kind(r: dict) -> str:
    if r["held_end"]:
        return "never let go, within 0.15 m" if r["closest_held"] < GOAL_TOL else "never let go, away"
    if r["end_dist"] >= GOAL_TOL:
        return "let go at the goal, moved off"
    return "at the goal, arm not at rest"


if __name__ == "__main__":
    main(sys.argv[1:], trace, timeout_kind)
