"""`tpsrl-train`: the training command. `tpsrl-train skill=<name> [overrides]` trains one HAB skill on the
simulator with the VER engine; without `skill=` it trains a gymnasium env (`env.id=...`), as the engine's
own entry point does.

    tpsrl-train skill=pick                                   # HAB pick, base movement on, state obs
    tpsrl-train skill=pick skill.base_movement=false         # TP-SRL's per-skill action space
    tpsrl-train skill=place skill.depth=64 policy=cpu        # with 64x64 head depth
    tpsrl-train skill=pick run.dir=runs/pick/a run.resume=true run.total_steps=5000000

The skill's name and task config are stored in every checkpoint (`meta`), next to the spaces, so that
`skills.learned.load_skill_policy` can rebuild the policy and check it against the task it is used on.
"""

from __future__ import annotations

import signal
import sys
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

try:  # the imports take seconds (torch, MuJoCo): a Ctrl-C meanwhile is one line, not a traceback
    from omegaconf import DictConfig, OmegaConf

    from tpsrl.config import config_dir
    from tpsrl.engine import checkpoint as ckpt
    from tpsrl.engine.checkpoint import CheckpointError
    from tpsrl.engine.config import ConfigError, TrainConfig, config_error, from_dict
    from tpsrl.engine.envs import EnvContractError
    from tpsrl.engine.ppo import LearningDiverged
    from tpsrl.engine.train import RunDirError, train
    from tpsrl.engine.workers import WorkerError

    from .registry import env_factory, legacy_values, make_config, task_class
except KeyboardInterrupt:
    print("\ntpsrl-train: interrupted during start-up; nothing was trained", file=sys.stderr)
    raise SystemExit(130) from None


@dataclass
class SkillTrainConfig(TrainConfig):
    """The root config of `tpsrl-train`: the engine's, plus the skill to train (empty: none)."""

    skill: dict[str, Any] = field(default_factory=dict)
    """`name` (a key of skills.registry.TASKS) and fields of that skill's task config."""


def skill_meta(skill: dict[str, Any]) -> dict[str, Any]:
    """Checks the `skill` section against the registry; returns what checkpoints record of it."""
    fields = dict(skill)
    name = fields.pop("name", None)
    if not name:
        raise ConfigError(f"skill.name is missing in {skill}; pass skill=<name>")
    try:
        task_class(name)
        config = make_config(name, **fields)
    except (ValueError, TypeError) as e:
        raise ConfigError(str(e)) from None
    return {"skill": name, "skill_config": asdict(config)}


def resume_meta(meta: dict[str, Any], run_dir: str | Path) -> dict[str, Any]:
    """The meta a resumed run is checked against. A run started before a task-config field existed
    recorded no value for it: it resumes when the field has the value the run was trained with (the
    config's `LEGACY`), and keeps recording its meta as it began."""
    return _resume_meta(meta, _stored_meta(run_dir))


def _stored_meta(run_dir: str | Path) -> dict[str, Any] | None:
    """The meta of the run in `run_dir`; None: no checkpoint there."""
    path = Path(run_dir) / "checkpoints" / ckpt.LATEST
    return (ckpt.load(path, "cpu").get("meta") or {}) if path.is_file() else None


def _resume_meta(meta: dict[str, Any], stored: dict[str, Any] | None) -> dict[str, Any]:
    if stored is None or stored.get("skill") != meta["skill"]:
        return meta
    old = stored.get("skill_config") or {}
    missing = set(meta["skill_config"]) - set(old)
    legacy = legacy_values(meta["skill"])
    if missing and all(k in legacy and meta["skill_config"][k] == legacy[k] for k in missing):
        return {**meta, "skill_config": {k: v for k, v in meta["skill_config"].items() if k not in missing}}
    return meta


def train_config(cfg: DictConfig | dict[str, Any]) -> tuple[TrainConfig, dict[str, Any]]:
    """The engine's config and the `skill` section of a composed `tpsrl-train` config; an unknown key, a
    wrong type or an unresolvable interpolation raises `ConfigError` naming the field."""
    from omegaconf.errors import OmegaConfBaseException

    try:
        data = OmegaConf.to_container(cfg, resolve=True) if isinstance(cfg, DictConfig) else dict(cfg)
    except OmegaConfBaseException as e:
        raise config_error(e) from None
    skill = data.pop("skill", None) or {}  # type: ignore[union-attr]
    return from_dict(data), skill  # type: ignore[arg-type]


def run(cfg: DictConfig | dict[str, Any]) -> Any:
    """Trains what `cfg` (a composed `tpsrl-train` config) asks for; returns the engine's `TrainResult`."""
    train_cfg, skill = train_config(cfg)
    if not skill:
        return train(train_cfg)
    meta = skill_meta(skill)
    grip = float(meta["skill_config"].get("grip_init_mean", 0.0))
    if train_cfg.run.resume:
        stored = _stored_meta(train_cfg.run.dir)
        meta = _resume_meta(meta, stored)
        if stored is not None and stored.get("skill") == meta["skill"]:  # named here, not as the policy
            # field it sets (policy.init_action_mean), which the engine's check would name
            legacy = legacy_values(meta["skill"])["grip_init_mean"]  # a run older than the field
            ran = float((stored.get("skill_config") or {}).get("grip_init_mean", legacy))
            if ran != grip:
                raise ConfigError(
                    f"run.resume=true but skill.grip_init_mean={grip} and the run in {train_cfg.run.dir} was "
                    f"started with {ran}: pass skill.grip_init_mean={ran}"
                )
    factory = env_factory(meta["skill"], **{k: v for k, v in skill.items() if k != "name"})
    if grip:
        if train_cfg.policy.init_action_mean:
            raise ConfigError(
                f"skill.grip_init_mean={grip} and policy.init_action_mean={list(train_cfg.policy.init_action_mean)} "
                "both set the initial action; set one"
            )
        train_cfg.policy.init_action_mean = grip_mean(factory, grip)
    return train(train_cfg, env_factory=factory, meta=meta)


def grip_mean(factory: Any, grip: float) -> list[float]:
    """A per-dimension initial action mean: `grip` for the grip action of `factory`'s env, 0 elsewhere."""
    from .policy import ActionLayout

    env = factory()
    try:
        layout = ActionLayout.of(env)
    finally:
        env.close()
    if "grip_action" not in layout.slices:
        raise ConfigError(
            f"skill.grip_init_mean={grip}: this skill has no grip action ({list(layout.slices)})"
        )
    mean = [0.0] * layout.size
    mean[layout.slices["grip_action"]] = [grip]
    return mean


# Exit codes: 2 a bad config or run directory, 1 an environment failed or learning diverged, 128 + signal when stopped by
# SIGINT (130) or SIGTERM (143) after writing a checkpoint, 130 for a Ctrl-C during start-up.
USER_ERRORS = (ConfigError, RunDirError, EnvContractError, CheckpointError)


def _hydra_task(cfg: DictConfig) -> None:
    try:
        result = run(cfg)
    except USER_ERRORS as e:
        print(f"tpsrl-train: {e}", file=sys.stderr)
        raise SystemExit(2) from None
    except (WorkerError, LearningDiverged) as e:
        print(f"tpsrl-train: {e}\nthe run stopped; its last checkpoint is valid", file=sys.stderr)
        raise SystemExit(1) from None
    except KeyboardInterrupt:
        print("\ntpsrl-train: interrupted", file=sys.stderr)
        raise SystemExit(130) from None
    if result.stop_signal == signal.SIGTERM:
        # the checkpoint is written: a late copy of the signal (`timeout` sends two) must not kill the exit
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    print(
        f"tpsrl-train: {result.counters.env_steps} steps, {result.counters.updates} updates; run dir {result.run_dir}"
    )
    if result.interrupted:
        raise SystemExit(128 + (result.stop_signal or signal.SIGINT))


def task_field_overrides(overrides: list[str] | tuple[str, ...]) -> list[str]:
    """Any task field may be set (`skill.spawn_max_dist=1.0`), not only those a preset lists: `skill.*`
    overrides become Hydra's add-or-override (`++`); the skill's config then checks name and type."""
    return ["++" + a if a.startswith("skill.") else a for a in overrides]


def compose(overrides: list[str] | tuple[str, ...] = ()) -> DictConfig:
    """The `tpsrl-train` config with Hydra overrides applied (Python API and tests)."""
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    register()
    try:
        with initialize_config_dir(config_dir=str(config_dir())):
            return hydra_compose(config_name="train", overrides=task_field_overrides(overrides))
    except HydraException as e:  # a bad override: one line naming it, and the field and value if known
        cause = e.__cause__
        if isinstance(cause, OmegaConfBaseException):
            raise config_error(cause) from None
        raise ConfigError(_one_line(str(e))) from None


def _one_line(message: str) -> str:
    """Hydra's multi-line message (e.g. a missing preset and the available ones) on one line."""
    lines = message.split("Config search path")[0].splitlines()
    return " ".join(line.strip() for line in lines if line.strip())


def _check_overrides(overrides: list[str]) -> None:
    """Composes once to report an override Hydra cannot apply (a wrong type, a missing preset) on one
    line with exit 2, as every other configuration error."""
    try:
        compose(overrides)
    except ConfigError as e:
        print(f"tpsrl-train: {e}", file=sys.stderr)
        raise SystemExit(2) from None


def register() -> None:
    """Registers the schema with Hydra's ConfigStore (called by the entry points, not on import)."""
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(name="train_schema", node=SkillTrainConfig, replace=True)


def main() -> None:
    """`tpsrl-train [skill=<name>] [hydra overrides]`."""
    try:
        import hydra

        args = task_field_overrides(sys.argv[1:])
        sys.argv[1:] = args
        if not any(a.startswith("-") for a in args):  # Hydra's flags aside, bad overrides are one line too
            _check_overrides(args)
        register()
        hydra.main(config_path=str(config_dir()), config_name="train")(_hydra_task)()
    except KeyboardInterrupt:  # during start-up (imports, composition), before training installs its handler
        print("\ntpsrl-train: interrupted during start-up; nothing was trained", file=sys.stderr)
        raise SystemExit(130) from None


if __name__ == "__main__":
    main()
