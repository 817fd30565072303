"""What HAB's force rule would read where ours reads the arm: the held object's and the whole scene's contacts.

    python docs/results/hab/diagnostics/scene_force/forces.py skills/checkpoints/place.pt 200 > place.jsonl
    python docs/results/hab/diagnostics/scene_force/forces.py skills/checkpoints/pick.pt 200 > pick.jsonl
    python docs/results/hab/diagnostics/scene_force/forces.py --summary place.jsonl

habitat-lab's RobotForce reads, when the task's `count_obj_collisions` is set (its default, and HAB's
place and pick configs), the largest normal force of any contact point in the scene, not the robot's.
Over a policy's own held-out episodes (the 200 of `place_timeouts.py` or `pick_timeouts.py`: HAB's
rules),
each step's three readings: the arm's largest contact (ours), the held object's largest contact, the
largest contact anywhere but the robot's base and body (which HAB's navmesh base never presses on
anything). Each reading goes through the force rule (min_force 20 N); one JSON line per episode: the
outcome, each reading's accumulated new force and largest instant force, and the steps it counted.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import mujoco
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timeouts"))
import pick_timeouts  # noqa: E402
import place_timeouts  # noqa: E402
from pick_timeouts import episodes  # noqa: E402

from skills.evaluate import failure_causes, load  # noqa: E402

MIN_FORCE = 20.0
READINGS = ("arm", "held", "scene")


class Rule:
    """HAB's RobotForce accumulation over one reading."""

    def __init__(self) -> None:
        self.prev, self.accum, self.peak, self.steps = 0.0, 0.0, 0.0, 0

    def step(self, force: float) -> None:
        self.peak = max(self.peak, force)
        if force - self.prev > MIN_FORCE:
            self.accum += force - self.prev
            self.prev = force
            self.steps += 1
        elif force < self.prev:
            self.prev = force


def readings(b: Any) -> dict[str, float]:
    """The three readings of this step's contacts (N)."""
    m, d = b.model, b.data
    held = set(b._held_geoms[b.held]) if b.held is not None else set()
    robot, arm = b._robot_geom, b._arm_geom
    out = dict.fromkeys(READINGS, 0.0)
    f = np.zeros(6)
    for i in range(d.ncon):
        g1, g2 = int(d.contact[i].geom1), int(d.contact[i].geom2)
        mujoco.mj_contactForce(m, d, i, f)
        n = abs(f[0])
        body = (robot[g1] and not arm[g1]) or (robot[g2] and not arm[g2])
        if not body:
            out["scene"] = max(out["scene"], n)
        if arm[g1] != arm[g2]:
            out["arm"] = max(out["arm"], n)
        if g1 in held or g2 in held:
            out["held"] = max(out["held"], n)
    return out


def trace(policy: str, count: int) -> None:
    skill = load(policy)[0].skill
    fields = {"pick": pick_timeouts.FIELDS, "place": place_timeouts.FIELDS}[skill]
    for k, env, skill_policy, obs in episodes(policy, count, fields):
        b = env.backend
        rules = {r: Rule() for r in READINGS}
        target = b.spec.targets[0]
        receptacle = next(o.receptacle for o in b.spec.objects if o.handle == target.handle)
        if skill == "place":
            receptacle = target.goal_receptacle
        done, steps = False, 0
        while not done:
            obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
            steps, done = steps + 1, terminated or truncated
            for r, v in readings(b).items():
                rules[r].step(v)
        row = {
            "episode": k,
            "receptacle": receptacle,
            "success": info["episode_stats"].get("success", 0.0) > 0.5,
            "causes": failure_causes(info["episode_stats"]),
            "steps": steps,
        }
        for r, rule in rules.items():
            row[r] = {"accum": round(rule.accum, 1), "peak": round(rule.peak, 1), "counted": rule.steps}
        print(json.dumps(row), flush=True)


def summary(path: str) -> None:
    rows = [json.loads(line) for line in open(path)]
    print(f"{path}: {len(rows)} episodes, {sum(r['success'] for r in rows)} successes")
    for r in READINGS:
        acc = np.array([row[r]["accum"] for row in rows])
        peak = np.array([row[r]["peak"] for row in rows])
        ended = [row for row in rows if row[r]["accum"] > 1e4 or row[r]["peak"] > 1e4]
        print(
            f"  {r:5s}: accumulated new force median {np.median(acc):8.1f} N, p90 {np.percentile(acc, 90):8.1f}, "
            f"max {acc.max():9.1f}; largest instant median {np.median(peak):7.1f}, max {peak.max():9.1f}; "
            f"over a 1e4 limit: {len(ended)} ({sum(row['success'] for row in ended)} of them successes)"
        )


if __name__ == "__main__":
    if sys.argv[1] == "--summary":
        for p in sys.argv[2:]:
            summary(p)
    else:
        trace(sys.argv[1], int(sys.argv[2]))
