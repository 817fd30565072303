"""A place policy's first episodes (seeds 0..n-1, held-out layouts, its own task), a row every 20 steps:
step, object-goal distance (m), holding, grip output, EE action, base action (thirty-eighth session):

    python docs/results/hab/diagnostics/teach_place/place_steps.py runs/imitate/place_n01.pt 3
"""

from __future__ import annotations

import sys

import numpy as np

from skills.evaluate import failure_causes, load
from skills.policy import ActionLayout
from skills.registry import make_env


def main(policy: str, episodes: int) -> None:
    skill_policy, fields = load(policy)
    env = make_env("place", **{**fields, "split": "heldout"})
    slices = ActionLayout.of(env).slices
    for k in range(episodes):
        obs, _ = env.reset(seed=k)
        skill_policy.reset(env)
        rows, done, t, info = [], False, 0, {}
        while not done:
            a = skill_policy.act(obs, env)
            obs, _, terminated, truncated, info = env.step(a)
            done = terminated or truncated
            if t % 20 == 0 or done:
                dist = float(np.linalg.norm(obs["obj_goal_sensor"]))
                rows.append(
                    (t, round(dist, 2), env.backend.held is not None, round(float(a[slices["grip_action"]][0]), 2),
                     np.round(a[slices["arm_ee_action"]], 2).tolist(), np.round(a[slices["base_velocity"]], 2).tolist())
                )  # fmt: skip
            t += 1
        stats = info["episode_stats"]
        print(k, "success" if stats.get("success", 0) > 0.5 else failure_causes(stats))
        for row in rows:
            print("   ", row)
    env.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
