"""`python -m skills.warmstart <checkpoint> <out.pt>`: start points for new skill runs made from trained
policies: by default a skill without base movement from one trained with it (its base outputs removed).

Why: trained from scratch, the no-base pick (`docs/results/runs/pick_nobase`, 0.94M steps) settled in a
loop it never left: it grasps (+2) and lets go on the next step (-0.5, which ends the episode), so it
never saw what holding on and returning the arm to rest pays (+10). The base pick already holds on.
Removing its base outputs (the actor rows and log-stds of `base_velocity`; observations, encoders,
critic and normaliser statistics are kept; an LSTM also drops its first layer's previous-base-action
inputs) gives a policy of the no-base action space that does the same with its arm and grip. Train from it with `tpsrl-train skill=<s> skill.base_movement=false
run.init_from=<out.pt>`; the written file keeps the source's env steps, which the new run counts.

`--add-base` goes the other way: from a skill trained without base movement, a policy of the with-base
action space whose base outputs start at 0 (the base stays still on the mean action; their log-stds
`--base-log-std`, by default the mean of the source's) and whose LSTM reads the previous base action with
zero weights, so it acts with its arm and grip as the source did. Give the base a small log-std: from the
no-base place's (-0.12, std 0.89) the fine-tune's first 0.2M steps ended 16-18% of their episodes on force
(the base's noise drove it into furniture) and succeeded in 2-5%; from -1.5 (std 0.22), 36-46% (that run
also kept the source's place rule, HAB's, where the first had the gentle rule: not the log-std alone). Why: the with-base place as an LSTM from scratch learned slowly (55.0% of
200 validation episodes at 3.56M steps, the MLP shipped 73.5%), while the no-base place's LSTM already
places from near starts; the with-base task adds driving to a skill that can place.

`--hold-grip` instead keeps the whole policy and sets its grip output to hold (weights 0, bias 1,
log-std -1.5): for a policy that reaches and grasps but lets go at once, like the from-scratch no-base
pick. Its grip output depended on the state (bias 0.04, std 0.67), so whatever it did after a grasp, a
release followed within steps; every episode ended in a drop, the critic learned that, and the
advantage of any grip action after a grasp was about 0: nothing pulled it out. With the grip held it
grasps on touch, and PPO learns the rest (0 -> 0.6 training success in 1M steps; docs/results.md).

`--add-depth N` keeps the action space and adds the N x N head depth camera to the observations: the
image encoder (`policy.image_encoder`, `flat` by default) is new, and the heads' weights on its features
start at 0, so the written policy acts and values exactly as the source did until training teaches it
to use depth. Why: the state-only place, started by the chain next to furniture, drove its base into the
furniture and stayed there with the object 0.4-0.7 m short of a goal deep on the surface (its mean
action for that relative goal position is the one that worked where nothing was in the way); with
state alone it cannot tell the two apart. MLP and LSTM policies (an LSTM's first layer gains the
zero columns: the heads read the LSTM).

`--add-sensor NAME` keeps the action space and adds a state sensor that is not HAB's (`SENSOR_FIELDS`:
`base_odometry`, the base's measured velocity; `goal_path_compass`, distance and direction along the
shortest path to the goal; `arm_contact_force`, log(1 + the arm's contact force); `base_ranges`, a planar
lidar's 24 distances; `goal_receptacle_shift`, how far the goal's fridge door or drawer has been pushed
shut; `held_top`, which way the held object leans and how tall it is) to the observations, its input
weights 0, so the written policy acts as the source did until trained. Why: 40 of the shipped nav's 45
held-out failures were the base pressed into furniture (mostly a table's footprint, driving straight at a
goal behind it) for the rest of the episode: an MLP has no memory and its other observations stop changing
when the base is blocked, so its mean action repeats forever. Any skill, nav included (one without base
movement refuses the sensors a fixed base cannot use, odometry and the path compass, as its config does);
MLP and LSTM policies (the shipped pick is an LSTM; given the path compass and fine-tuned from starts up to
8 m away it did not pick more from there, nor given the arm contact sensor: docs/results.md, nineteenth and
twenty-sixth sessions).

`--widen H` gives an LSTM policy more units per layer, acting as before (`skills/widen.py`).

`--rename-sensor OLD:NEW` keeps everything and reads the sensor NEW (same shape) where the policy read
OLD, with OLD's normaliser statistics and weights: the shipped nav is the nav trained on `joint` reading
`joint_sway` (the two read the same in every nav training episode; inside HAB chains the arm is often
off rest, where `joint` is far outside what nav saw; docs/skills.md); MLP and LSTM policies. `--drop-sensor
NAME` removes a vector sensor (its input taken at its training mean, where its normalised value is 0); MLP
policies only.
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any

import torch

from tpsrl.engine import checkpoint
from tpsrl.engine.encoders import IMAGE_ENCODERS, is_image
from tpsrl.engine.envs import space_to_dict
from tpsrl.engine.policy import ActorCritic, PolicyConfig
from tpsrl.sim.sensors import SENSORS

from .config import task_fields
from .learned import task_config
from .policy import ActionLayout
from .registry import TASKS, make_env

ACTION_PARAMS = ("actor.weight", "actor.bias", "log_std")
"""The policy parameters with one row per action dimension (MLP and LSTM policies alike)."""


class WarmStartError(ValueError):
    """A checkpoint that cannot give the start point asked for."""


def load_source(
    source: str | Path, out: Path, base_movement: bool = False, nav: bool = False
) -> tuple[dict[str, Any], str, dict[str, Any]]:
    """The checkpoint, skill name and full task config of `source` (a manipulation skill, or nav too with
    `nav`; trained with base movement if `base_movement`); refuses an existing `out`."""
    if out.exists():
        raise WarmStartError(f"{out} exists; choose another path (nothing is overwritten)")
    data = checkpoint.read(source)
    skill = (data.get("meta") or {}).get("skill")
    base = ((data.get("meta") or {}).get("skill_config") or {}).get("base_movement", True)
    if not skill or (skill == "nav_to_obj" and not nav) or (base_movement and not base):
        raise WarmStartError(
            f"{source}: not a manipulation skill{' trained with base movement' if base_movement else ''} "
            f"(skill {skill!r}, base_movement {base})"
        )
    if skill not in TASKS:
        raise WarmStartError(f"{source}: skill {skill!r} unknown here; known: {sorted(TASKS)}")
    config = task_config(data["meta"])  # the source's task config, fields it predates filled in
    return data, skill, task_fields(config)


def _vector_columns(space: Any) -> dict[str, range]:
    """Each vector sensor's columns in the MLP encoder's input: the vector inputs are concatenated in
    sorted key order (images have encoders of their own)."""
    at, cols = 0, {}
    for key in sorted(k for k, sp in space.spaces.items() if not is_image(sp)):
        size = math.prod(space[key].shape)
        cols[key] = range(at, at + size)
        at += size
    return cols


def _mlp_policy(data: dict[str, Any], source: str | Path, option: str) -> PolicyConfig:
    """The policy config of `data`; `option` (the command-line flag) takes MLP policies only."""
    pcfg = PolicyConfig(**data["config"]["policy"])
    if pcfg.kind != "mlp":
        raise WarmStartError(f"{source}: policy.kind {pcfg.kind!r}; {option} takes MLP policies")
    return pcfg


def _spaces(skill: str, fields: dict[str, Any]) -> tuple[tuple[str, ...], Any, Any]:
    """The observation names, observation space and action space of `skill`'s env under `fields`."""
    env = make_env(skill, **fields)
    try:
        return tuple(env.cfg.observations), env.observation_space, env.action_space
    finally:
        env.close()


def _action_rows(model: dict[str, torch.Tensor], size: int, source: str | Path) -> None:
    for key in ACTION_PARAMS:
        if key not in model or model[key].shape[0] != size:
            raise WarmStartError(f"{source}: policy parameter {key!r} with {size} action rows not found")


def write_derived(
    data: dict[str, Any],
    out: Path,
    source: str | Path,
    derived: dict[str, Any],
    skill_config: dict[str, Any],
    **parts: Any,
) -> Path:
    """Exports `data` with `parts` (model, spaces, config) replaced, `skill_config` merged into its task
    config and a provenance entry saying how it was derived from `source`."""
    meta = {**data["meta"], "skill_config": {**(data["meta"].get("skill_config") or {}), **skill_config}}
    # A shipped source's training curve goes along (as `run.init_from` records it), so a file shipped
    # from this one, trained on or not, still shows the training behind it.
    entry = {**derived, "from": str(Path(source).resolve()), **checkpoint.code_version()}
    if data.get("curve"):
        entry["init_curve"] = data["curve"]
    payload = {**data, **parts, "meta": meta, "provenance": [*data.get("provenance", []), entry]}
    return checkpoint.export_policy(payload, out)


def _base_rows(
    skill: str, fields: dict[str, Any], target_base: bool
) -> tuple[ActionLayout, ActionLayout, list[int], dict]:
    """The with-base and no-base action layouts of `skill` under `fields`, the with-base rows of the no-base
    actions (HAB's order puts arm and grip first), and the spaces of the one `target_base` names; refuses
    a skill whose observations differ between the two."""
    with_base = make_env(skill, **{**fields, "base_movement": True})
    without = make_env(skill, **{**fields, "base_movement": False})
    try:
        full, kept = ActionLayout.of(with_base), ActionLayout.of(without)
        if space_to_dict(with_base.observation_space) != space_to_dict(without.observation_space):
            raise WarmStartError(f"{skill}: observations differ with and without base movement")
        rows = [
            i
            for name, s in kept.slices.items()
            for i in range(full.slices[name].start, full.slices[name].stop)
        ]
        target = with_base if target_base else without
        spaces = {
            "observation": space_to_dict(target.observation_space),
            "action": space_to_dict(target.action_space),
        }
    finally:
        with_base.close()
        without.close()
    return full, kept, rows, spaces


def without_base(source: str | Path, out: str | Path) -> Path:
    """Writes the policy of `source` (a skill trained with base movement) without its base outputs."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=True)
    full, _, rows, spaces = _base_rows(skill, fields, target_base=False)
    model = dict(data["model"])
    _action_rows(model, full.size, source)
    for key in ACTION_PARAMS:
        model[key] = model[key][torch.tensor(rows)].clone()
    # An LSTM reads the previous action after the encoder's features (`Body.step`): its first layer keeps
    # the kept actions' input columns (the same as reading 0 for the dropped base actions).
    for key in [k for k in model if k.endswith(".core.lstm.weight_ih_l0")]:
        first = model[key].shape[1] - full.size
        model[key] = torch.cat([model[key][:, :first], model[key][:, first:][:, rows]], 1).clone()
    policy = dict(data["config"]["policy"])
    if policy.get("init_action_mean"):
        policy["init_action_mean"] = [policy["init_action_mean"][i] for i in rows]
    derived = {"derived": "without_base", "kept_action_rows": rows}
    return write_derived(
        data,
        out,
        source,
        derived,
        {**fields, "base_movement": False},
        model=model,
        spaces=spaces,
        config={**data["config"], "policy": policy},
    )


def with_base(source: str | Path, out: str | Path, base_log_std: float | None = None) -> Path:
    """Writes the policy of `source` (a skill trained without base movement) with base outputs added: their
    actor rows and bias 0 (the base stays still on the mean action), their log-stds `base_log_std` (None:
    the mean of the source's, its exploration level), and an LSTM's first layer reading the previous base
    action with zero weights. The written policy acts with its arm and grip as the source did; training teaches it to
    drive. The inverse of `without_base` (whose rows it puts back where the with-base layout has them)."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=False)
    if fields.get("base_movement", True):
        raise WarmStartError(f"{source}: trained with base movement already (skill {skill!r})")
    if base_log_std is not None and not -5.0 <= base_log_std <= 2.0:
        raise WarmStartError(f"--base-log-std {base_log_std}: accepted -5.0 .. 2.0")
    full, kept, rows, spaces = _base_rows(skill, fields, target_base=True)
    model = dict(data["model"])
    _action_rows(model, kept.size, source)
    index = torch.tensor(rows)
    weight = torch.zeros(full.size, model["actor.weight"].shape[1])
    weight[index] = model["actor.weight"]
    fill = float(model["log_std"].mean()) if base_log_std is None else base_log_std
    bias, log_std = torch.zeros(full.size), torch.full((full.size,), fill)
    bias[index], log_std[index] = model["actor.bias"], model["log_std"]
    model["actor.weight"], model["actor.bias"], model["log_std"] = weight, bias, log_std
    for key in [k for k in model if k.endswith(".core.lstm.weight_ih_l0")]:
        first = model[key].shape[1] - kept.size
        columns = torch.zeros(model[key].shape[0], full.size)
        columns[:, index] = model[key][:, first:]
        model[key] = torch.cat([model[key][:, :first], columns], 1)
    policy = dict(data["config"]["policy"])
    if policy.get("init_action_mean"):
        mean = [0.0] * full.size
        for i, value in zip(rows, policy["init_action_mean"], strict=True):
            mean[i] = value
        policy["init_action_mean"] = mean
    derived = {"derived": "with_base", "source_action_rows": rows}
    return write_derived(
        data,
        out,
        source,
        derived,
        {**fields, "base_movement": True},
        model=model,
        spaces=spaces,
        config={**data["config"], "policy": policy},
    )


GRIP_HOLD_BIAS, GRIP_HOLD_LOG_STD = 1.0, -1.5
"""The held grip: mean 1, std 0.22, so a sampled release (grip < 0) is a 4.5-sigma event."""


def hold_grip(source: str | Path, out: str | Path) -> Path:
    """Writes the policy of `source` (a manipulation skill) with its grip output set to hold."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=False)
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
    return write_derived(data, out, source, {"derived": "hold_grip", "grip_row": row}, {}, model=model)


def with_depth(source: str | Path, out: str | Path, depth: int, image_encoder: str = "flat") -> Path:
    """Writes the policy of `source` (a state-only manipulation skill) with `depth` x `depth` head depth
    added to its observations; the heads ignore the new features until trained (weights 0)."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=False)
    if fields["depth"] or depth < 1:
        raise WarmStartError(
            f"{source}: needs a state-only policy and depth >= 1 (it has depth "
            f"{fields['depth']}, asked {depth})"
        )
    if image_encoder not in IMAGE_ENCODERS:
        raise WarmStartError(f"--image-encoder {image_encoder!r}; accepted: {' | '.join(IMAGE_ENCODERS)}")
    pcfg = PolicyConfig(**{**data["config"]["policy"], "image_encoder": image_encoder})
    _, obs_space, action_space = _spaces(skill, {**fields, "depth": depth})
    with torch.random.fork_rng():  # a seeded encoder, the caller's RNG untouched
        torch.manual_seed(0)
        fresh = ActorCritic(obs_space, int(action_space.shape[0]), pcfg).state_dict()
    old, model = data["model"], {}
    for key, new in fresh.items():
        src = old.get(key)
        if src is not None and src.shape == new.shape:
            model[key] = src.clone()
        elif (key in ("actor.weight", "critic.weight") or key.endswith(".core.lstm.weight_ih_l0")) and (
            src is not None and src.shape[0] == new.shape[0]
        ):
            # the encoder's features are [image features..., vector features], which the heads of an MLP
            # read (an LSTM's first layer: then the previous action): the source's columns go last, the
            # new start at 0
            model[key] = torch.zeros_like(new)
            model[key][:, new.shape[1] - src.shape[1] :] = src
        elif src is None and ".images." in key:
            model[key] = new  # the new image encoder, freshly initialised
        else:
            raise WarmStartError(
                f"{source}: policy parameter {key!r} does not carry over "
                f"({None if src is None else tuple(src.shape)} -> {tuple(new.shape)})"
            )
    spaces = {"observation": space_to_dict(obs_space), "action": space_to_dict(action_space)}
    return write_derived(
        data,
        out,
        source,
        {"derived": "with_depth", "depth": depth},
        {**fields, "depth": depth},
        model=model,
        spaces=spaces,
        config={"policy": asdict(pcfg)},
    )


SENSOR_FIELDS = {
    "base_odometry": "odometry",
    "goal_path_compass": "path_compass",
    "arm_contact_force": "contact",
    "base_ranges": "ranges",
    "goal_receptacle_shift": "shift_sensor",
    "held_top": "top_sensor",
}
"""Sensors `--add-sensor` adds -> the skill config field that turns each on."""


def with_sensor(source: str | Path, out: str | Path, sensor: str) -> Path:
    """Writes the policy of `source` (an MLP or LSTM skill) with `sensor` (a key of `SENSOR_FIELDS`) added
    to its observations; the first layers' weights on it start at 0, so it acts and values as the source.
    An LSTM reads the encoder's features (and the previous action), whose width does not change: only the
    encoder's first layer gains columns."""
    out = Path(out)
    if sensor not in SENSOR_FIELDS:
        raise WarmStartError(f"--add-sensor {sensor!r}; accepted: {' | '.join(SENSOR_FIELDS)}")
    data, skill, fields = load_source(source, out, nav=True)
    field = SENSOR_FIELDS[sensor]
    if fields.get(field):
        raise WarmStartError(f"{source}: already observes {sensor}")
    pcfg = PolicyConfig(**data["config"]["policy"])
    plus = {**fields, field: True}
    if fields.get("observations"):  # an explicit list (a renamed or dropped sensor): the field adds nothing
        plus["observations"] = [*fields["observations"], sensor]
    try:
        _, obs_space, action_space = _spaces(skill, plus)
    except ValueError as e:  # the skill's config refuses it (odometry on a fixed base)
        raise WarmStartError(f"{source}: --add-sensor {sensor}: {e}") from e
    # The source's columns move to their new offsets, the added sensor's columns start at 0.
    kept = [c for key, cols in _vector_columns(obs_space).items() if key != sensor for c in cols]
    with torch.random.fork_rng():
        torch.manual_seed(0)
        fresh = ActorCritic(obs_space, int(action_space.shape[0]), pcfg).state_dict()
    old, model = data["model"], {}
    for key, new in fresh.items():
        src = old.get(key)
        if src is not None and src.shape == new.shape:
            model[key] = src.clone()
        elif key.endswith("encoder.mlp.0.weight") and src is not None and src.shape[1] == len(kept):
            model[key] = torch.zeros_like(new)
            model[key][:, kept] = src
        elif src is None and key.startswith(f"obs_norm.{sensor}."):
            model[key] = new  # fresh statistics (count 0)
        else:
            raise WarmStartError(
                f"{source}: policy parameter {key!r} does not carry over "
                f"({None if src is None else tuple(src.shape)} -> {tuple(new.shape)})"
            )
    spaces = {"observation": space_to_dict(obs_space), "action": space_to_dict(action_space)}
    return write_derived(
        data, out, source, {"derived": "with_sensor", "sensor": sensor}, plus, model=model, spaces=spaces
    )


def without_sensor(source: str | Path, out: str | Path, sensor: str) -> Path:
    """Writes the policy of `source` (an MLP skill) without the vector sensor `sensor`: the first layers'
    columns on it are removed, which is what feeding it its training mean does (its normalised input is
    then 0), and its observations become an explicit list (`skill.observations`) without it."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=False, nav=True)
    _mlp_policy(data, source, "--drop-sensor")
    observations, obs_space, _ = _spaces(skill, fields)
    if sensor not in obs_space.spaces or is_image(obs_space[sensor]):
        vector = sorted(k for k, space in obs_space.spaces.items() if not is_image(space))
        raise WarmStartError(f"--drop-sensor {sensor!r}: not a vector sensor of {source}; it has {vector}")
    cols = _vector_columns(obs_space)
    columns = sum(len(r) for r in cols.values())
    kept = [c for key, r in cols.items() if key != sensor for c in r]
    model = {}
    for key, value in data["model"].items():
        if key.startswith(f"obs_norm.{sensor}."):
            continue
        if key.endswith("encoder.mlp.0.weight"):
            if value.shape[1] != columns:
                raise WarmStartError(
                    f"{source}: {key!r} has {value.shape[1]} input columns, expected {columns}"
                )
            value = value[:, kept]
        model[key] = value.clone()
    kept_obs = tuple(o for o in observations if o != sensor)
    _, new_space, action_space = _spaces(skill, {**fields, "observations": kept_obs})
    spaces = {"observation": space_to_dict(new_space), "action": space_to_dict(action_space)}
    return write_derived(
        data,
        out,
        source,
        {"derived": "without_sensor", "sensor": sensor},
        {**fields, "observations": list(kept_obs)},
        model=model,
        spaces=spaces,
    )


def renamed_sensor(source: str | Path, out: str | Path, old: str, new: str) -> Path:
    """Writes the policy of `source` (an MLP or LSTM skill) reading the vector sensor `new` where it read
    `old` (same shape): its normaliser statistics and first-layer columns carry over (an LSTM's core reads
    the encoder's features, whose width does not change), so it acts on `new`'s readings as it acted on
    `old`'s. Its observations become an explicit list (`skill.observations`)."""
    out = Path(out)
    data, skill, fields = load_source(source, out, base_movement=False, nav=True)
    if old in PolicyConfig(**data["config"]["policy"]).critic_keys:
        raise WarmStartError(f"--rename-sensor {old}:{new}: {old!r} is one of policy.critic_keys of {source}")
    observations, obs_space, _ = _spaces(skill, fields)
    if old not in observations or is_image(obs_space[old]):
        raise WarmStartError(f"--rename-sensor {old}:{new}: {old!r} is not a vector sensor of {source}")
    if new in observations or new not in SENSORS:
        raise WarmStartError(f"--rename-sensor {old}:{new}: {new!r} is unknown or already observed")
    renamed = tuple(new if o == old else o for o in observations)
    _, new_space, action_space = _spaces(skill, {**fields, "observations": renamed})
    if new_space[new].shape != obs_space[old].shape:
        raise WarmStartError(
            f"--rename-sensor {old}:{new}: shapes differ ({obs_space[old].shape} vs {new_space[new].shape})"
        )
    # The new name may sort elsewhere: the source's columns in the new order of their sensors.
    before = _vector_columns(obs_space)
    order = [c for key in _vector_columns(new_space) for c in before[old if key == new else key]]
    model = {}
    for key, value in data["model"].items():
        if key.startswith(f"obs_norm.{old}."):
            key = f"obs_norm.{new}." + key[len(f"obs_norm.{old}.") :]
        elif key.endswith("encoder.mlp.0.weight"):
            value = value[:, order]
        model[key] = value.clone()
    spaces = {"observation": space_to_dict(new_space), "action": space_to_dict(action_space)}
    return write_derived(
        data,
        out,
        source,
        {"derived": "renamed_sensor", "sensor": old, "as": new},
        {**fields, "observations": list(renamed)},
        model=model,
        spaces=spaces,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.warmstart", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "source",
        help="checkpoint or run directory of a trained manipulation skill (with base "
        "movement for the default no-base start point)",
    )
    parser.add_argument("out", help="the policy file to write (must not exist)")
    how = parser.add_mutually_exclusive_group()
    how.add_argument("--hold-grip", action="store_true", help="keep every output, set the grip to hold")
    how.add_argument(
        "--add-base",
        action="store_true",
        help="from a skill trained without base movement: "
        "add base outputs that keep the base still until trained",
    )
    how.add_argument(
        "--add-depth",
        type=int,
        default=0,
        metavar="N",
        help="keep every output, add N x N head depth to the observations",
    )
    how.add_argument(
        "--add-sensor",
        metavar="NAME",
        help=f"keep every output, add the sensor NAME to the observations ({' | '.join(SENSOR_FIELDS)})",
    )
    how.add_argument(
        "--drop-sensor",
        metavar="NAME",
        help="keep every output, remove the vector sensor NAME "
        "from the observations (its input taken at its training mean)",
    )
    how.add_argument(
        "--rename-sensor",
        metavar="OLD:NEW",
        help="keep every output, read the sensor NEW (same "
        "shape) where the policy read OLD, e.g. joint:joint_sway for nav",
    )
    how.add_argument(
        "--widen",
        type=int,
        default=0,
        metavar="H",
        help="keep every output, give the LSTM H hidden units per layer (new units start unread)",
    )
    parser.add_argument(
        "--base-log-std",
        type=float,
        default=None,
        help="with --add-base: the base outputs' initial log-std (default: the mean of the source's)",
    )
    parser.add_argument("--image-encoder", default="flat", help="encoder of the added depth (default flat)")
    args = parser.parse_args(argv)

    def make() -> Path:
        if args.widen:
            from .widen import widened  # it builds on this module's helpers

            path = widened(args.source, args.out, args.widen)
        elif args.add_depth:
            path = with_depth(args.source, args.out, args.add_depth, args.image_encoder)
        elif args.add_sensor:
            path = with_sensor(args.source, args.out, args.add_sensor)
        elif args.rename_sensor:
            old, _, new = args.rename_sensor.partition(":")
            path = renamed_sensor(args.source, args.out, old, new)
        elif args.drop_sensor:
            path = without_sensor(args.source, args.out, args.drop_sensor)
        elif args.add_base:
            path = with_base(args.source, args.out, args.base_log_std)
        else:
            path = (hold_grip if args.hold_grip else without_base)(args.source, args.out)
        return path

    return written(make)


def written(make: Callable[[], Path]) -> int:
    """A command line's end: runs `make` (which writes a start point), prints where it is and how to train
    from it, or the error; the exit status."""
    try:
        path = make()
    except (WarmStartError, checkpoint.CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    print(f"wrote {path}: train from it with run.init_from={path}")
    return 0


if __name__ == "__main__":
    # run as the imported module, so errors raised in skills.widen (which imports it) are this main's own
    from skills import warmstart

    sys.exit(warmstart.main())
