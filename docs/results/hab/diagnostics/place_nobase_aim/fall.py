"""Where a tall object the no-base place lets go of ends up, against which way it leaned (59th session).

    python docs/results/hab/diagnostics/place_nobase_aim/fall.py POLICY SEED EPISODES > OUT.txt

POLICY as a no-base place by HAB's rules on episodes SEED + k (as `place_nobase_fails/fails.py`), only those
holding a tall object (`fails.size_group`) with its goal from 0.8 m up (the rest are reset and skipped). Per
episode, on the step it is let go: the object's tilt (deg), its horizontal distance to the goal, and `lean`,
the cosine between the way its top leans and the way from its centre to the goal (+1: leaning toward the
goal); at the end: its distance to the goal, how far it moved horizontally after the release, its height
against the goal's (fallen off the surface: well under 0) and the outcome. Last, the failures counted by what
happened: never let go, fell off the surface, came to rest beyond the tolerance having leaned toward or away
from the goal. Whether knowing which way the held object leans could help a policy aim it.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "place_nobase_fails"))
from fails import held_kind, nobase_env, size_group  # noqa: E402

from skills.evaluate import load  # noqa: E402

HIGH = 0.8
"""Goals from this height (m) up: where the ceiling analysis (`place_nobase_upright/ceiling.py`) finds a tall
object can mostly be held only tilted."""


def main(policy_path: str, seed: int, count: int) -> None:
    policy, fields = load(policy_path)
    env = nobase_env(fields)
    causes = Counter()
    for k in range(count):
        obs, _ = env.reset(seed=seed + k)
        b, t = env.backend, env.task
        kind = held_kind(b.spec, t.target)
        if size_group(kind) != "tall" or t.goal[2] < HIGH:
            continue
        policy.reset(env)
        done, release, info = False, None, {}
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done = terminated or truncated
            if b.held is None and release is None:
                pos, top = b.object_pos(t.target), b.object_top(t.target)
                up = top / np.linalg.norm(top)
                to_goal, lean = (t.goal - pos)[:2], up[:2]
                cos = float(to_goal @ lean / (np.linalg.norm(to_goal) * np.linalg.norm(lean) + 1e-9))
                tilt = float(np.degrees(np.arccos(np.clip(up[2], -1.0, 1.0))))
                release = (pos, tilt, float(np.linalg.norm(to_goal)), cos)
        ok = info["episode_stats"].get("success", 0.0) > 0.5
        end = b.object_pos(t.target)
        d_end, dz = float(np.linalg.norm(end - t.goal)), float(end[2] - t.goal[2])
        if release is None:
            line, cause = "never let go", "never let go"
        else:
            pos, tilt, d0, cos = release
            moved = float(np.linalg.norm((end - pos)[:2]))
            line = f"tilt {tilt:5.1f} d {d0:.3f} lean {cos:+.2f} -> end d {d_end:.3f} moved {moved:.3f}"
            line += f" dz {dz:+.3f}"
            side = "toward" if cos > 0 else "away from"
            cause = "fell off the surface" if dz < -0.15 else f"rest beyond, leaned {side} the goal"
        print(f"{k:3d} {'ok  ' if ok else 'FAIL'} {kind:16s} goal z {t.goal[2]:.2f} {line}", flush=True)
        causes["placed" if ok else cause] += 1
    env.close()
    print()
    for cause, n in sorted(causes.items()):
        print(f"{cause:40s} {n:3d}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
