"""Several no-base places acting as one: each step, the mean of their mean actions (each policy keeps its
own memory), on the episodes `place_nobase_aim/evaluate.sh` draws (held-out layouts, spawns within 1.0 m,
every goal once, HAB's place and force rules), 200 from each of SEEDS.

    python docs/results/hab/diagnostics/place_nobase_ensemble/ensemble.py OUT.json SEEDS MEMBER [MEMBER ...]
    SPAWN=habitat2 python .../ensemble.py OUT.json SEEDS MEMBER...   # starts by that `skill.spawn_rule`

MEMBER: a run directory or checkpoint of the no-base place, all with the same observations. Writes OUT.json
(never overwritten) with `outcomes` in evaluate's order, for `place_nobase_tall/pair.py`; an ensemble of
one member is that policy as `skills.evaluate` runs it (the check that the episodes are the same).
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

from skills.evaluate import failure_causes, load, wilson_interval
from skills.place import ALL_RECEPTACLES
from skills.registry import make_env
from tpsrl.engine.inference import single_thread_acting

RULES = dict(  # evaluate.sh's --set fields
    spawn_max_dist=1.0,
    release_speed=0.0,
    settle_speed=0.0,
    clear_dist=0.0,
    shut_tol=0.0,
    force_measure="peak",
    goal_receptacles=ALL_RECEPTACLES,
)


def main(out: str, seeds: list[int], members: list[str]) -> None:
    if Path(out).exists():
        sys.exit(f"ensemble.py: {out} exists; not overwritten")
    single_thread_acting()
    loaded = [load(m) for m in members]
    policies = [p for p, _ in loaded]
    keys = {tuple(p.runner.keys) for p in policies}
    if len(keys) != 1:
        sys.exit(f"ensemble.py: the members observe different sensors: {sorted(keys)}")
    spawn = {"spawn_rule": os.environ["SPAWN"]} if os.environ.get("SPAWN") else {}
    env = make_env("place", **{**loaded[0][1], **RULES, **spawn, "split": "heldout"})
    outcomes, causes, t0 = [], Counter(), time.perf_counter()
    for seed in seeds:
        for k in range(200):
            obs, _ = env.reset(seed=seed + k)
            for p in policies:
                p.reset(env)
            done = False
            while not done:
                action = np.mean([p.act(obs, env) for p in policies], axis=0)
                obs, _, terminated, truncated, info = env.step(action)
                done = terminated or truncated
            stats = info["episode_stats"]
            outcomes.append(stats.get("success", 0.0) > 0.5)
            causes.update(failure_causes(stats))
    env.close()
    wins, n = sum(outcomes), len(outcomes)
    low, high = wilson_interval(wins, n)
    result = {
        "members": members,
        "seeds": seeds,
        "episodes": n,
        "success": wins / n,
        "ci_low": low,
        "ci_high": high,
        "failures": dict(causes),
        "seconds": round(time.perf_counter() - t0, 1),
        "outcomes": outcomes,
    }
    Path(out).write_text(json.dumps(result) + "\n")
    print(f"{out}: {100 * wins / n:.2f}% [{100 * low:.1f}, {100 * high:.1f}] of {n} {dict(causes)}")


if __name__ == "__main__":
    main(sys.argv[1], [int(float(x)) for x in sys.argv[2].split(",")], sys.argv[3:])
