"""The shipped no-base place in its first 3 failed fridge episodes of `nobase_fridge_60.json` (seed 13,000,000 + k,
HAB's place rule), every 30 steps: the held object's distance to its goal, whether it is held, and the goal
in the EE frame; then the episode's stats. Last, for every failed episode: whether the object is still held at
the end and how far it lies from its goal.

    python docs/results/hab/diagnostics/place_gamma/fridge_trace.py > docs/results/hab/diagnostics/place_gamma/fridge_trace.txt
"""

import json
from pathlib import Path

import numpy as np

from skills.evaluate import load
from skills.registry import make_env

HERE = Path(__file__).resolve().parent


def main() -> None:
    result = json.loads((HERE / "nobase_fridge_60.json").read_text())
    fails = [k for k, ok in enumerate(result["outcomes"]) if not ok]
    policy, fields = load("skills/checkpoints/place_nobase.pt")
    hab = {"release_speed": 0, "settle_speed": 0, "goal_receptacles": ("fridge",), "split": "heldout"}
    env = make_env("place", **{**fields, **hab})
    ends = []
    for i, k in enumerate(fails):
        show = i < 3
        obs, _ = env.reset(seed=13_000_000 + k)
        policy.reset(env)
        b, t = env.backend, env.task
        x, y, _ = b.base_pose
        if show:
            print(
                f"episode {k}: base -> goal {np.hypot(t.goal[0] - x, t.goal[1] - y):.2f} m planar, z {t.goal[2]:.2f}"
            )
        done, n = False, 0
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            n, done = n + 1, terminated or truncated
            if show and (n % 30 == 0 or done):
                gap = float(np.linalg.norm(b.object_pos(t.target) - t.goal))
                print(
                    f"  step {n:3d}  object -> goal {gap:.3f}  held {b.held == t.target}  goal in EE frame",
                    np.round(obs["obj_goal_sensor"][:3], 2),
                )
        ends.append((b.held == t.target, float(np.linalg.norm(b.object_pos(t.target) - t.goal))))
        if show:
            print("  ", {key: round(v, 3) for key, v in info["episode_stats"].items() if v})
    env.close()
    held = sorted(round(g, 2) for h, g in ends if h)
    let_go = sorted(round(g, 3) for h, g in ends if not h)
    print(f"{len(ends)} failed: held at the end {len(held)}, object -> goal {held}")
    print(f"let go {len(let_go)}, object -> goal {let_go}")


if __name__ == "__main__":
    main()
