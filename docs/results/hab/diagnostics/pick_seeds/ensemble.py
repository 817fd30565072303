"""ensemble.py SEED EPISODES A.pt B.pt ...: the pick task (held-out layouts, HAB's force rule) acted by
the mean of several picks' mean actions, each pick with its own memory; one JSON line (success,
failures, outcomes). Fortieth session: pick_hard_s11, s16 and s15 on the validation episodes."""

import json
import sys
from collections import Counter

import numpy as np

from skills.evaluate import failure_causes, load
from skills.registry import make_env

seed, episodes, sources = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3:]
members = [load(s)[0] for s in sources]
fields = load(sources[0])[1]
env = make_env("pick", **{**fields, "split": "heldout", "force_measure": "peak"})
outcomes, causes = [], Counter()
for k in range(episodes):
    obs, _ = env.reset(seed=seed + k)
    for m in members:
        m.reset(env)
    done = False
    while not done:
        action = np.mean([m.runner.act(obs) for m in members], axis=0)
        obs, _, terminated, truncated, info = env.step(action)
        done = terminated or truncated
    outcomes.append(info["episode_stats"].get("success", 0.0) > 0.5)
    causes.update(failure_causes(info["episode_stats"]))
summary = {"sources": sources, "seed": seed, "success": sum(outcomes) / episodes, "failures": dict(causes)}
print(json.dumps({**summary, "outcomes": outcomes}))
