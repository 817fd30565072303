"""How often a learned skill's normalised inputs hit their clip (`policy.obs_clip`), and its success with and
without: for each episode, whether any step read a sensor at the clip.

    python docs/results/hab/diagnostics/clipping/clipped_inputs.py POLICY EPISODES SEED [BANK] [--set k=v ...]

BANK: a start bank (training layouts) to run instead of the task's own held-out episodes.
"""

import sys

import numpy as np

from skills.evaluate import load, task_overrides
from skills.registry import make_env
from skills.starts import load_bank

args = sys.argv[1:]
sets = [args[i + 1] for i, a in enumerate(args) if a == "--set"]
args = [a for i, a in enumerate(args) if a != "--set" and (i == 0 or args[i - 1] != "--set")]
policy, episodes, seed = args[0], int(args[1]), int(args[2])
skill_policy, fields = load(policy)
norms = skill_policy.runner.policy.obs_norm
split = "train" if len(args) > 3 else "heldout"
specs = load_bank(args[3], split, skill_policy.skill) if len(args) > 3 else None
env = make_env(skill_policy.skill, **{**fields, **task_overrides(sets), "split": split})
rows = []
for k in range(episodes if specs is None else min(episodes, len(specs))):
    obs, _ = env.reset(seed=seed + k, options=None if specs is None else {"episode": specs[k]})
    skill_policy.reset(env)
    hit: set[str] = set()
    first: set[str] = set()
    done, n = False, 0
    while not done:
        for key, norm in norms.items():
            z = (np.asarray(obs[key], np.float64) - norm.mean.numpy()) / norm.std.numpy()
            if np.abs(z).max() >= norm.clip:
                hit.add(key)
                if n == 0:
                    first.add(key)
        obs, _, terminated, truncated, info = env.step(skill_policy.act(obs, env))
        done, n = terminated or truncated, n + 1
    rows.append((info["episode_stats"].get("success", 0.0) > 0.5, bool(hit), bool(first), sorted(hit)))
env.close()
ok = [r[0] for r in rows]
clipped = [r for r in rows if r[1]]
clean = [r for r in rows if not r[1]]
print(
    f"{policy}: {sum(ok)}/{len(rows)} succeed; episodes with a clipped input {len(clipped)} "
    f"({sum(r[0] for r in clipped)} succeed), at the start {sum(r[2] for r in rows)}; "
    f"without {len(clean)} ({sum(r[0] for r in clean)} succeed); sensors clipped: "
    f"{sorted({k for r in rows for k in r[3]})}"
)
