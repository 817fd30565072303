"""Place policies acting as one: each member keeps its own memory, the ensemble acts on their mean action.

    python docs/results/hab/diagnostics/place_gamma/ensemble.py OUT.json POLICY [POLICY ...]

Evaluates the ensemble on the place table's 800 held-out episodes (sets 1e6-4e6) by HAB's place and force
rules, as `place_updates/evaluate.sh` does a single policy, and writes evaluate's JSON result to OUT.json.
Every member is fed the ensemble's executed action as its previous action. An experiment, not shipped code.
"""

from __future__ import annotations

import json
import sys
from dataclasses import asdict

import numpy as np
import torch

import skills.evaluate as ev
from skills.learned import load_skill_policy

ALL = tuple(
    "kitchen_counter kitchen_cabinet dining_table coffee_table sofa tv_stand shelf side_table bookshelf fridge drawer_0".split()
)
HAB = dict(
    release_speed=0, settle_speed=0, clear_dist=0, shut_tol=0, force_measure="peak", goal_receptacles=ALL
)


class MeanRunner:
    """The runners of several policies behind one runner's interface."""

    def __init__(self, runners):
        self.runners = runners
        self.policy = runners[0].policy
        self.keys = sorted({k for r in runners for k in r.keys})
        self.deterministic, self.noise_scale = True, 1.0

    def reset(self):
        for r in self.runners:
            r.reset()

    def act(self, obs):
        action = np.mean([r.act(obs) for r in self.runners], axis=0)
        for r in self.runners:
            r.prev_action = torch.as_tensor(action, dtype=torch.float32)[None]
        return action


def main() -> None:
    torch.set_num_threads(1)
    out, paths = sys.argv[1], sys.argv[2:]
    members = [load_skill_policy(p) for p in paths]
    head = members[0]
    head.runner = MeanRunner([m.runner for m in members])
    ev.load = lambda policy, sample=False, noise_scale=1.0: (head, ev.drawn_once(ev.task_fields(head.config)))
    parts = [
        ev.evaluate("+".join(paths), 200, seed=s, **HAB) for s in (1_000_000, 2_000_000, 3_000_000, 4_000_000)
    ]
    result = ev.pooled(parts)
    json.dump(asdict(result), open(out, "w"))
    print(out, f"{100 * result.success:.2f}%", result.failures)


if __name__ == "__main__":
    main()
