"""The shipped place acting on its mean arm and grip, with its base action sampled.

    python docs/results/hab/diagnostics/place_memory/base_noise.py OUT.json SCALE [POLICY]

Sampled at its trained spread (`sampled.sh`), s103 times out less (61 -> 40 of the 800) and fails on force
more (22 -> 50): the question here is whether noise on the base alone frees a stuck base without the arm's
noise pressing on furniture. The base's noise is SCALE times the policy's std, the arm's and grip's 0,
drawn from the episode's seed (as `skills.evaluate --sample`). The place table's 800 held-out episodes (sets
1e6-4e6) by HAB's place and force rules, as `place_updates/evaluate.sh`; writes evaluate's JSON result to
OUT.json. An experiment, not shipped code.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import torch

import skills.evaluate as ev
from skills.learned import load_skill_policy
from skills.policy import ActionLayout
from skills.registry import make_env

ALL = tuple(
    "kitchen_counter kitchen_cabinet dining_table coffee_table sofa tv_stand shelf side_table bookshelf fridge drawer_0".split()
)
HAB = dict(
    release_speed=0, settle_speed=0, clear_dist=0, shut_tol=0, force_measure="peak", goal_receptacles=ALL
)


def base_only(policy: str, sample: bool = True, noise_scale: float = 1.0):
    learned = load_skill_policy(policy)
    fields = ev.drawn_once(ev.task_fields(learned.config))
    env = make_env(learned.skill, **{**fields, **HAB, "split": "heldout"})
    base = ActionLayout.of(env).slices["base_velocity"]
    env.close()
    scale = torch.zeros(learned.runner.policy.action_dim)
    scale[base] = noise_scale
    learned.runner.deterministic, learned.runner.noise_scale = False, scale
    return learned, fields


def main() -> None:
    torch.set_num_threads(1)
    out, scale = sys.argv[1], float(sys.argv[2])
    policy = sys.argv[3] if len(sys.argv) > 3 else "skills/checkpoints/place.pt"
    ev.load = base_only
    parts = [
        ev.evaluate(policy, 200, seed=s, sample=True, noise_scale=scale, **HAB)
        for s in (1_000_000, 2_000_000, 3_000_000, 4_000_000)
    ]
    result = ev.pooled(parts)
    json.dump(asdict(result), open(out, "w"))
    print(
        out,
        f"{100 * result.success:.2f}% [{100 * result.ci_low:.1f}, {100 * result.ci_high:.1f}]",
        result.failures,
    )


if __name__ == "__main__":
    main()
