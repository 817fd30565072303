"""Two inference-time variants of a learned pick, without retraining, on its own task or in a HAB chain.

    python docs/results/hab/diagnostics/pick_variants/variants.py cap 1.5 chain <tpsrl-eval overrides>
    python docs/results/hab/diagnostics/pick_variants/variants.py ensemble A.pt+B.pt+C.pt evaluate --episodes 200

- `cap R`: every policy reads `obj_start_sensor` (the object in the EE frame) with its length capped at
  R metres, its direction kept. Pick is trained from spawns within 2 m; from NoNav's far starts (a median
  5 m) the sensor reads what it never did in training. Capped, a far object looks like one at R m in
  the same direction.
- `ensemble A+B+...`: the pick acts on the mean of the policies' mean actions, each keeping its own
  memory and all fed the action taken. Give the pick's checkpoint as `checkpoints=pick:ensemble` in
  `chain` mode, or `ensemble` as the policy in `evaluate` mode.

`evaluate` runs `python -m skills.evaluate` with the arguments that follow; `chain` runs `tpsrl-eval`.
Both patch functions in this process only; nothing in the package changes.
"""

from __future__ import annotations

import sys
from dataclasses import replace

import numpy as np
import torch

import evaluation.policies
import evaluation.run
import skills.evaluate
import skills.learned
from tpsrl.sim import sensors


def cap_object_sensor(limit: float) -> None:
    """`obj_start_sensor` reads each target's vector with its length capped at `limit` metres."""
    sensor = sensors.SENSORS["obj_start_sensor"]

    def capped(backend, ctx):  # noqa: ANN001, ANN202 - a Sensor.read
        v = sensor.read(backend, ctx).reshape(-1, 3)
        n = np.linalg.norm(v, axis=1, keepdims=True)
        v = np.where(n > limit, v * (limit / np.maximum(n, 1e-9)), v)
        return v.reshape(-1).astype(np.float32)

    sensors.SENSORS["obj_start_sensor"] = replace(sensor, read=capped)


class EnsembleRunner:
    """`PolicyRunner`'s interface over several runners: the mean of their (clipped) mean actions."""

    def __init__(self, runners: list) -> None:
        self.runners, self.keys, self.policy = runners, runners[0].keys, runners[0].policy
        self.deterministic, self.noise_scale = True, 1.0

    def reset(self) -> None:
        for r in self.runners:
            r.reset()

    def act(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        action = np.mean([r.act(obs) for r in self.runners], axis=0).astype(np.float32)
        for r in self.runners:  # each policy's next input is the action taken, not its own
            r.prev_action = torch.as_tensor(action)[None]
        return action


def use_ensemble(paths: list[str]) -> None:
    """`load_skill_policy("ensemble")` loads the policies at `paths` behind one `EnsembleRunner`."""
    load = skills.learned.load_skill_policy

    def patched(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if str(path) != "ensemble":
            return load(path, *args, **kwargs)
        members = [load(p, *args, **kwargs) for p in paths]
        members[0].runner = EnsembleRunner([m.runner for m in members])
        return members[0]

    for module in (skills.learned, skills.evaluate, evaluation.policies, evaluation.run):
        module.load_skill_policy = patched
    checks = evaluation.policies._check_files
    evaluation.policies._check_files = lambda agent, sources, *rest: checks(
        agent, {s: p for s, p in sources.items() if p != "ensemble"}, *rest
    )


def main(argv: list[str]) -> int:
    if len(argv) < 3 or argv[0] not in ("cap", "ensemble") or argv[2] not in ("evaluate", "chain"):
        raise SystemExit(__doc__)
    if argv[0] == "cap":
        cap_object_sensor(float(argv[1]))
    else:
        use_ensemble(argv[1].split("+"))
    if argv[2] == "evaluate":
        return skills.evaluate.main(argv[3:])
    sys.argv = ["tpsrl-eval", *argv[3:]]
    evaluation.run.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
