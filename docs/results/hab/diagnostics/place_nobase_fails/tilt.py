"""How tilted the no-base place sets the held object down, and whether it stays within the tolerance.

    python docs/results/hab/diagnostics/place_nobase_fails/tilt.py POLICY SEED EPISODES > OUT.txt

POLICY as a no-base place by HAB's rules on episodes SEED + k (as `fails.py`): per episode the held
object's type, the angle between its up axis and the vertical on the step it is let go (none: never let
go), the height of its centre above the goal then (dz) and whether it already touches something outside the
robot (resting on the surface as it is let go, rather than dropped), the outcome; last, success by that
angle for tall objects (half-height >= 0.085 m: cracker box, mustard bottle, sugar box) and the others, and
how often each group is let go touching.
"""

from __future__ import annotations

import sys
from collections import Counter

import numpy as np
from fails import contacts, held_kind, nobase_env, size_group  # (this folder)

from skills.evaluate import load


def tilt(b, handle: str) -> float:
    """Degrees between the object's up axis and the vertical."""
    up = b.data.xmat[b._obj_body[b._handle_index[handle]]].reshape(3, 3)[2, 2]
    return float(np.degrees(np.arccos(np.clip(up, -1.0, 1.0))))


def touching(b, handle: str) -> bool:
    """Whether the object touches anything but the robot."""
    return any(who == "object" for who, _ in contacts(b, set(b._held_geoms[handle])))


def main(policy_path: str, seed: int, count: int) -> None:
    policy, fields = load(policy_path)
    env = nobase_env(fields)
    n, ok = Counter(), Counter()
    for k in range(count):
        obs, _ = env.reset(seed=seed + k)
        policy.reset(env)
        b, t = env.backend, env.task
        kind = held_kind(b.spec, t.target)
        done, at_release, dz, touch, info = False, None, 0.0, False, {}
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done = terminated or truncated
            if b.held is None and at_release is None:
                at_release = tilt(b, t.target)
                dz, touch = float(b.object_pos(t.target)[2] - t.goal[2]), touching(b, t.target)
        success = info["episode_stats"].get("success", 0.0) > 0.5
        group = size_group(kind)
        shown = "never" if at_release is None else f"{at_release:5.1f} dz {dz:+.3f} touching {int(touch)}"
        print(f"{k:3d} {'ok  ' if success else 'FAIL'} {kind:16s} tilt at release {shown}", flush=True)
        if at_release is not None:
            key = (group, "under 20 deg" if at_release < 20 else "20 deg or more")
            n[key] += 1
            ok[key] += success
            n[(group, "let go")] += 1
            ok[(group, "let go")] += touch
    env.close()
    print()
    for key in sorted(n):
        what = "touching" if key[1] == "let go" else "placed"
        print(
            f"{key[0]:5s} {key[1]:15s} {what:8s} {ok[key]:3d} of {n[key]:3d} ({100 * ok[key] / n[key]:5.1f}%)"
        )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
