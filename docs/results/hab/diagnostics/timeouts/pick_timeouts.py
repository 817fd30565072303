"""How a pick policy ends its own task's held-out episodes, and what its timeouts were doing.

    python docs/results/hab/diagnostics/timeouts/pick_timeouts.py skills/checkpoints/pick.pt 200 > shipped.jsonl
    python docs/results/hab/diagnostics/timeouts/pick_timeouts.py --summary shipped.jsonl lidar_mix.jsonl

The pick task's held-out episodes from the default evaluation seed (the skills table's 200), HAB's
spawns within 2 m, 300 steps, HAB's force rule (`force_measure=peak`), whatever the policy was trained
with. One JSON line per episode: the outcome and its causes, the base's start and end distance to the
object (2-D), the first step holding it, the gripper's closest approach to it, the base's path length,
the steps with more than 1 kN of robot contact force, and the object's final height. `--summary` sorts
each file's timeouts into one cause each, in this order: grasped (but not back at rest in time), object
on the floor (knocked off its furniture), pressing on furniture for over half the episode, drove away
(ended 0.5 m farther from the object than it started), gripper within 0.15 m without a grasp (the
suction grasp needs the gripper to touch the object), never within 0.15 m.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from skills.evaluate import EVAL_SEED, failure_causes, load
from skills.registry import make_env
from tpsrl.engine.inference import single_thread_acting

FIELDS = {"split": "heldout", "spawn_max_dist": 2.0, "max_steps": 300, "force_measure": "peak"}
PRESSING = 1e3  # N of robot contact force


def episodes(policy: str, count: int, task: dict[str, Any]) -> Iterator[tuple[int, Any, Any, Any]]:
    """(k, env, policy, first observation) for the policy's own task's held-out episodes `EVAL_SEED + k`,
    the env built with the policy's fields and `task` over them."""
    single_thread_acting()
    skill_policy, fields = load(policy)
    env = make_env(skill_policy.skill, **{**fields, **task})
    for k in range(count):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        skill_policy.reset(env)
        yield k, env, skill_policy, obs
    env.close()


def trace(policy: str, count: int) -> None:
    for k, env, skill_policy, obs in episodes(policy, count, FIELDS):
        b = env.backend
        target = b.spec.targets[0].handle
        start = np.array(b.base_pose[:2])
        d0 = float(np.linalg.norm(b.object_pos(target)[:2] - start))
        grasp, closest, path, pressing, steps, done = None, np.inf, 0.0, 0, 0, False
        last = start
        while not done:
            obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
            steps, done = steps + 1, terminated or truncated
            here = np.array(b.base_pose[:2])
            path, last = path + float(np.linalg.norm(here - last)), here
            closest = min(closest, float(np.linalg.norm(b.ee_pos_world - b.object_pos(target))))
            if grasp is None and b.held == target:
                grasp = steps
            pressing += b.force_instant > PRESSING
        stats = info["episode_stats"]
        obj = b.object_pos(target)
        row = {
            "k": k,
            "ok": stats.get("success", 0.0) > 0.5,
            "causes": failure_causes(stats),
            "steps": steps,
            "d0": round(d0, 2),
            "d_end": round(float(np.linalg.norm(obj[:2] - last)), 2),
            "grasp": grasp,
            "held_end": b.held == target,
            "min_ee": round(closest, 3),
            "path": round(path, 2),
            "press": int(pressing),
            "obj_z": round(float(obj[2]), 2),
        }
        print(json.dumps(row), flush=True)


def timeout_kind(r: dict) -> str:
    if r["grasp"] is not None:
        return "grasped"
    if r["obj_z"] < 0.1:
        return "object on the floor"
    if r["press"] > r["steps"] / 2:
        return "pressing"
    if r["d_end"] > r["d0"] + 0.5:
        return "drove away"
    if r["min_ee"] <= 0.15:
        return "within 0.15 m, no grasp"
    return "never within 0.15 m"


def summary(paths: list[str], kind: Callable[[dict], str]) -> None:
    """Each file's outcomes and failure causes, and its timeouts sorted by `kind`."""
    for path in paths:
        rows = [json.loads(line) for line in open(path)]
        causes = Counter(c for r in rows for c in r["causes"])
        kinds = Counter(kind(r) for r in rows if "timeout" in r["causes"])
        print(f"{path}: {sum(r['ok'] for r in rows)} of {len(rows)}; failures {dict(causes)}")
        print(f"  timeouts: {dict(kinds.most_common())}")


def main(argv: list[str], trace: Callable[[str, int], None], kind: Callable[[dict], str]) -> None:
    """`<policy> [episodes]` traces; `--summary <files>` sorts the traced timeouts."""
    if argv[0] == "--summary":
        summary(argv[1:], kind)
    else:
        trace(argv[0], int(argv[1]) if len(argv) > 1 else 200)


if __name__ == "__main__":
    main(sys.argv[1:], trace, timeout_kind)
