"""Three inference-time variants of a learned pick, without retraining, on its own task or in a HAB chain.

    python docs/results/hab/diagnostics/pick_variants/variants.py cap 1.5 chain <tpsrl-eval overrides>
    python docs/results/hab/diagnostics/pick_variants/variants.py ensemble A.pt+B.pt+C.pt evaluate --episodes 200
    python docs/results/hab/diagnostics/pick_variants/variants.py stall 10,0.01,0.3 evaluate skills/checkpoints/pick.pt

- `cap R`: every policy reads `obj_start_sensor` (the object in the EE frame) with its length capped at
  R metres, its direction kept. Pick is trained from spawns within 2 m; from NoNav's far starts (a median
  5 m) the sensor reads what it never did in training. Capped, a far object looks like one at R m in
  the same direction.
- `ensemble A+B+...`: the pick acts on the mean of the policies' mean actions, each keeping its own
  memory and all fed the action taken. Give the pick's checkpoint as `checkpoints=pick:ensemble` in
  `chain` mode, or `ensemble` as the policy in `evaluate` mode.
- `stall K,EPS,S`: pick and place act on their mean action, as the evaluations do, except while they
  make no progress: when the distance they reduce (EE to object or goal, then EE to rest) has not fallen by EPS metres
  over the last K steps, it samples with S times its std. The mean action's timeouts are where it stops
  getting closer (thirtieth session); noise throughout unsticks them but costs force failures.

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


def install_loader(loader) -> None:  # noqa: ANN001 - load_skill_policy's signature
    """Every module that loads skill policies by name (evaluation and chains) uses `loader`."""
    for module in (skills.learned, skills.evaluate, evaluation.policies, evaluation.run):
        module.load_skill_policy = loader


def use_ensemble(paths: list[str]) -> None:
    """`load_skill_policy("ensemble")` loads the policies at `paths` behind one `EnsembleRunner`."""
    load = skills.learned.load_skill_policy

    def patched(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if str(path) != "ensemble":
            return load(path, *args, **kwargs)
        members = [load(p, *args, **kwargs) for p in paths]
        members[0].runner = EnsembleRunner([m.runner for m in members])
        return members[0]

    install_loader(patched)
    checks = evaluation.policies._check_files
    evaluation.policies._check_files = lambda agent, sources, *rest: checks(
        agent, {s: p for s, p in sources.items() if p != "ensemble"}, *rest
    )


class StallRunner:
    """Wraps a pick's or place's `PolicyRunner`: the mean action, or a sampled one while it makes no
    progress.

    Progress is the distance the skill reduces: pick's EE to the object (`obj_start_sensor`) until it
    holds it, place's EE to the goal (`obj_goal_sensor`) while it holds the object, then the EE to rest
    (`relative_resting_position`). It stalls when that distance has not fallen by EPS over the last K
    steps."""

    def __init__(self, runner, skill: str, window: int, eps: float, scale: float) -> None:  # noqa: ANN001
        self.runner, self.keys, self.policy = runner, runner.keys, runner.policy
        self.pick = skill == "pick"
        self.target = "obj_start_sensor" if self.pick else "obj_goal_sensor"
        self.window, self.eps, self.scale = window, eps, scale
        self.deterministic, self.noise_scale = True, 1.0
        self.reset()

    def reset(self) -> None:
        self.runner.reset()
        self.history: list[float] = []
        self.held = False

    def act(self, obs: dict[str, np.ndarray]) -> np.ndarray:
        holding = float(obs["is_holding"][0]) > 0.5
        first_phase = not holding if self.pick else holding  # pick reaches, then holds; place the reverse
        key = self.target if first_phase else "relative_resting_position"
        d = float(np.linalg.norm(np.asarray(obs[key])[:3]))
        if holding != self.held:  # a new phase, a new distance
            self.history, self.held = [], holding
        self.history = [*self.history[-self.window :], d]
        still = len(self.history) > self.window and self.history[0] - min(self.history[1:]) < self.eps
        sample = still or not self.deterministic
        self.runner.deterministic = not sample
        self.runner.noise_scale = self.scale if still else self.noise_scale
        return self.runner.act(obs)


def use_stall(window: int, eps: float, scale: float) -> None:
    """Every loaded pick and place policy acts through a `StallRunner`."""
    load = skills.learned.load_skill_policy

    def patched(path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        skill = load(path, *args, **kwargs)
        if skill.skill in ("pick", "place"):
            skill.runner = StallRunner(skill.runner, skill.skill, window, eps, scale)
        return skill

    install_loader(patched)


def main(argv: list[str]) -> int:
    kinds = ("cap", "ensemble", "stall")
    if len(argv) < 3 or argv[0] not in kinds or argv[2] not in ("evaluate", "chain"):
        raise SystemExit(__doc__)
    if argv[0] == "cap":
        cap_object_sensor(float(argv[1]))
    elif argv[0] == "ensemble":
        use_ensemble(argv[1].split("+"))
    else:
        k, eps, scale = argv[1].split(",")
        use_stall(int(k), float(eps), float(scale))
    if argv[2] == "evaluate":
        return skills.evaluate.main(argv[3:])
    sys.argv = ["tpsrl-eval", *argv[3:]]
    evaluation.run.main()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
