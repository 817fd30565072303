"""`python -m skills.warmstart <checkpoint> <out.pt>`: the start point of a skill without base movement,
made from one trained with it: the same policy with the base outputs removed.

Why: trained from scratch, the no-base pick (`docs/results/runs/pick_nobase`, 0.94M steps) settled in a
loop it never left: it grasps (+2) and lets go on the next step (-0.5, which ends the episode), so it
never saw what holding on and returning the arm to rest pays (+10). The base pick already holds on.
Removing its base outputs (the actor rows and log-stds of `base_velocity`; observations, encoders,
critic and normaliser statistics are kept) gives a policy of the no-base action space that does the same
with its arm and grip. Train from it with `tpsrl-train skill=<s> skill.base_movement=false
run.init_from=<out.pt>`; the written file keeps the source's env steps, which the new run counts.

`--hold-grip` instead keeps the whole policy and sets its grip output to hold (weights 0, bias 1,
log-std -1.5): for a policy that reaches and grasps but lets go at once, like the from-scratch no-base
pick. Its grip output depended on the state (bias 0.04, std 0.67), so whatever it did after a grasp, a
release followed within steps; every episode ended in a drop, the critic learned that, and the
advantage of any grip action after a grasp was about 0: nothing pulled it out. With the grip held it
grasps on touch, and PPO learns the rest (0 -> 0.6 training success in 1M steps; docs/results.md).
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from tpsrl.engine import checkpoint
from tpsrl.engine.envs import space_to_dict

from .learned import task_config
from .policy import ActionLayout
from .registry import TASKS, make_env

ACTION_PARAMS = ("actor.weight", "actor.bias", "log_std")
"""The policy parameters with one row per action dimension (MLP and LSTM policies alike)."""


class WarmStartError(ValueError):
    """A checkpoint that cannot give a no-base start point."""


def _load(source: str | Path, out: Path, base_movement: bool) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The checkpoint, skill name and full task config of `source`; refuses an existing `out`."""
    if out.exists():
        raise WarmStartError(f"{out} exists; choose another path (nothing is overwritten)")
    data = checkpoint.read(source)
    skill = (data.get("meta") or {}).get("skill")
    base = ((data.get("meta") or {}).get("skill_config") or {}).get("base_movement", True)
    if not skill or skill == "nav_to_obj" or (base_movement and not base):
        raise WarmStartError(
            f"{source}: not a manipulation skill{' trained with base movement' if base_movement else ''} "
            f"(skill {skill!r}, base_movement {base})"
        )
    if skill not in TASKS:
        raise WarmStartError(f"{source}: skill {skill!r} unknown here; known: {sorted(TASKS)}")
    config = task_config(data["meta"])  # the source's task config, fields it predates filled in
    return data, skill, {k: v for k, v in asdict(config).items() if k != "split"}


def _action_rows(model: dict[str, torch.Tensor], size: int, source: str | Path) -> None:
    for key in ACTION_PARAMS:
        if key not in model or model[key].shape[0] != size:
            raise WarmStartError(f"{source}: policy parameter {key!r} with {size} action rows not found")


def _derived(kind: str, source: str | Path, **extra: Any) -> dict[str, Any]:
    return {"derived": kind, "from": str(Path(source).resolve()), **extra, **checkpoint.code_version()}


def without_base(source: str | Path, out: str | Path) -> Path:
    """Writes the policy of `source` (a skill trained with base movement) without its base outputs."""
    out = Path(out)
    data, skill, fields = _load(source, out, base_movement=True)
    with_base, without = make_env(skill, **fields), make_env(skill, **{**fields, "base_movement": False})
    try:
        full, kept = ActionLayout.of(with_base), ActionLayout.of(without)
        if space_to_dict(with_base.observation_space) != space_to_dict(without.observation_space):
            raise WarmStartError(f"{skill}: observations differ with and without base movement")
        rows = [
            i
            for name, s in kept.slices.items()
            for i in range(full.slices[name].start, full.slices[name].stop)
        ]
        spaces = {"observation": space_to_dict(without.observation_space),
                  "action": space_to_dict(without.action_space)}  # fmt: skip
    finally:
        with_base.close()
        without.close()
    model = dict(data["model"])
    _action_rows(model, full.size, source)
    for key in ACTION_PARAMS:
        model[key] = model[key][torch.tensor(rows)].clone()
    skill_cfg = data["meta"].get("skill_config") or {}
    meta = {**data["meta"], "skill_config": {**skill_cfg, **fields, "base_movement": False}}
    payload = {**data, "model": model, "spaces": spaces, "meta": meta,
               "provenance": [*data.get("provenance", []), _derived("without_base", source, kept_action_rows=rows)]}  # fmt: skip
    checkpoint.export_policy(payload, out)
    return out


GRIP_HOLD_BIAS, GRIP_HOLD_LOG_STD = 1.0, -1.5
"""The held grip: mean 1, std 0.22, so a sampled release (grip < 0) is a 4.5-sigma event."""


def hold_grip(source: str | Path, out: str | Path) -> Path:
    """Writes the policy of `source` (a manipulation skill) with its grip output set to hold."""
    out = Path(out)
    data, skill, fields = _load(source, out, base_movement=False)
    env = make_env(skill, **fields)
    try:
        layout = ActionLayout.of(env)
    finally:
        env.close()
    if "grip_action" not in layout.slices:
        raise WarmStartError(f"{source}: skill {skill!r} has no grip action")
    row = layout.slices["grip_action"].start
    model = {k: v.clone() for k, v in data["model"].items()}
    _action_rows(model, layout.size, source)
    model["actor.weight"][row] = 0.0
    model["actor.bias"][row] = GRIP_HOLD_BIAS
    model["log_std"][row] = GRIP_HOLD_LOG_STD
    derived = _derived("hold_grip", source, grip_row=row)
    checkpoint.export_policy(
        {**data, "model": model, "provenance": [*data.get("provenance", []), derived]}, out
    )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.warmstart", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="checkpoint or run directory of a skill trained with base movement")
    parser.add_argument("out", help="the policy file to write (must not exist)")
    parser.add_argument("--hold-grip", action="store_true", help="keep every output, set the grip to hold")
    args = parser.parse_args(argv)
    try:
        path = (hold_grip if args.hold_grip else without_base)(args.source, args.out)
    except (WarmStartError, checkpoint.CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path}: train from it with run.init_from={path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
