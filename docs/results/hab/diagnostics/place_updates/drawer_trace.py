"""The drawer's state while the shipped place works on drawer goals (`receptacle_timeouts.py`'s episodes).

    python docs/results/hab/diagnostics/place_updates/drawer_trace.py skills/checkpoints/place.pt 0,1,7,9,30,43

For each listed episode k (goals in the top drawer, HAB's place rule): at some steps the drawer's joint
state (m pulled out), the object's distance from its goal, whether it is held and the base position.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timeouts"))
import place_timeouts  # noqa: E402
from pick_timeouts import episodes  # noqa: E402

STEPS = (1, 20, 30, 35, 40, 50, 80, 150, 299)


def main(policy: str, wanted: str) -> None:
    ks = {int(k) for k in wanted.split(",")}
    fields = dict(place_timeouts.FIELDS, goal_receptacles=("drawer_0",))
    for k, env, pol, obs in episodes(policy, max(ks) + 1, fields):
        if k not in ks:
            continue
        b = env.backend
        target, goal = b.spec.targets[0].handle, np.array(b.spec.targets[0].goal)
        rows, done, step = [], False, 0
        while not done:
            obs, _, terminated, truncated, info = env.step(pol.act(obs, env))
            step, done = step + 1, terminated or truncated
            if step in STEPS or done:
                dist = float(np.linalg.norm(b.object_pos(target) - goal))
                base = np.round(b.base_pose[:2], 2).tolist()
                rows.append(
                    (step, round(b.articulation("drawer_0"), 3), round(dist, 3), b.held == target, base)
                )
        print(k, "success" if info["episode_stats"].get("success", 0) > 0.5 else "failure")
        for step, drawer, dist, held, base in rows:
            print(
                f"  step {step:3d}  drawer {drawer:6.3f} m  object->goal {dist:5.3f} m  held {held!s:5s}  base {base}"
            )


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
