"""Whether a no-base place pushes the goal's drawer or fridge door shut before it lets go (sixty-fourth session).

    python docs/results/hab/diagnostics/place_nobase_h2mix/shut.py POLICY SEED COUNT RECEPTACLE [SPAWN] > OUT.txt

POLICY as a no-base place by HAB's place and force rules (`place_nobase_fails/fails.py`'s task), episodes
SEED + k, every goal in RECEPTACLE (drawer_0 or fridge), the robot started by SPAWN (a `skill.spawn_rule`;
default: the skill's own, within 1.0 m). Per episode: the outcome, the held object's size (tall: the cracker
box, mustard bottle and sugar box), the base's planar distance to the goal, the goal's height, whether the
object is still held at the end, its end and closest distance to the goal, the steps the held object or the
arm touched anything, and the receptacle's joint (drawer: m, door: rad) at the start and when it was let go.
Last, the outcomes by size and how many let go with the joint pushed more than 0.15 toward closed ("shut").
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "place_nobase_fails"))
sys.path.insert(0, str(HERE.parent / "place_reach"))
from contacts import contacts  # noqa: E402
from fails import held_kind, nobase_env, size_group  # noqa: E402

from skills.evaluate import load  # noqa: E402

PUSHED = 0.15
"""How far toward closed (m or rad) the joint must be pushed, when the object is let go, to count as shut."""


def main(policy_path: str, seed: int, count: int, receptacle: str, spawn: str | None) -> None:
    policy, fields = load(policy_path)
    overrides = {"goal_receptacles": (receptacle,), **({"spawn_rule": spawn} if spawn else {})}
    env = nobase_env(fields, **overrides)
    tally: Counter = Counter()
    for k in range(count):
        obs, _ = env.reset(seed=seed + k)
        policy.reset(env)
        b, t = env.backend, env.task
        held_geom = set(b._held_geoms.get(t.target, []))
        size = size_group(held_kind(b.spec, t.target))
        base_goal = float(np.linalg.norm(np.array(b.base_pose[:2]) - np.array(t.goal[:2])))
        start, at_release = b.articulation(receptacle), None
        seen: Counter = Counter()
        done, closest, steps, info = False, float("inf"), 0, {}
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done, steps = terminated or truncated, steps + 1
            if at_release is None and b.held != t.target:
                at_release = b.articulation(receptacle)
            if b.held == t.target:
                closest = min(closest, float(np.linalg.norm(b.object_pos(t.target) - t.goal)))
                seen.update({w for w, _ in contacts(b, held_geom)})
        stats = info["episode_stats"]
        ok = stats.get("success", 0.0) > 0.5
        fail = ",".join(key[5:] for key, v in stats.items() if key.startswith("fail/") and v)
        gap = float(np.linalg.norm(b.object_pos(t.target) - t.goal))
        shut = at_release is not None and at_release < start - PUSHED
        tally[(size, ok)] += 1
        tally[("shut", ok)] += shut
        released = "held" if at_release is None else f"{at_release:.2f}"
        print(
            f"{k:3d} {'ok  ' if ok else 'FAIL'} {fail:13s} {size:5s} base-goal {base_goal:.2f} goal-z {t.goal[2]:.2f} "
            f"held {int(b.held == t.target)} gap {gap:.2f} closest {closest:.2f} steps {steps:3d} "
            f"touch {dict(seen)} joint {start:.2f} -> {released}",
            flush=True,
        )
    env.close()
    for group in ("other", "tall", "shut"):
        print(f"{group:5s} placed {tally[(group, True)]:3d} failed {tally[(group, False)]:3d}")


if __name__ == "__main__":
    spawn_rule = sys.argv[5] if len(sys.argv) > 5 else None
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4], spawn_rule)
