"""The root training config: typed dataclasses composed by Hydra (`configs/train.yaml`), checked by
`validate` with errors that name the field, its value and what is accepted."""

from __future__ import annotations

import dataclasses
import difflib
import math
import multiprocessing as mp
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from omegaconf import DictConfig, OmegaConf
from omegaconf.errors import ConfigKeyError, OmegaConfBaseException

from tpsrl.engine.collector import MODES, EngineConfig
from tpsrl.engine.encoders import ACTIVATIONS, IMAGE_ENCODERS
from tpsrl.engine.policy import KINDS, PolicyConfig
from tpsrl.engine.ppo import PPOConfig

WANDB_MODES = ("offline", "online", "disabled")
LR_SCHEDULES = ("cosine", "constant")


@dataclass
class GymEnvConfig:
    """Which environment to train on when no factory is passed to `train`."""

    id: str = "Pendulum-v1"
    """A registered gymnasium env id (continuous actions)."""
    kwargs: dict[str, Any] = field(default_factory=dict)
    """Keyword arguments for gymnasium.make."""


@dataclass
class RunConfig:
    """Run directory, length, seeding, checkpoints and logging."""

    dir: str = "runs/default"
    """Run directory; an existing non-empty one is refused unless `resume` is true."""
    resume: bool = False
    """Continue the run in `dir` from its latest checkpoint."""
    init_from: str = ""
    """Start a new run from the policy of this checkpoint (run directory, `.pt` file or shipped skill):
    fine-tuning after a change of task settings or simulator. Weights and normaliser statistics are
    copied; optimizer, entropy coefficient, counters and RNG start fresh. Spaces and `policy` must
    match. Only read when a run starts (a resumed run already holds the weights)."""
    total_steps: int = 1_000_000
    """Environment steps to train for (all environments together)."""
    seed: int = 0
    """Seed of torch, numpy, python and the environments."""
    device: str = "cpu"
    """Torch device of the policy: cpu | cuda | cuda:K."""
    torch_threads: int = 0
    """torch intra-op threads in the trainer; 0 leaves torch's default."""
    checkpoint_every: int = 20
    """Write `checkpoints/latest.pt` every this many updates (and at the end, on Ctrl-C, on errors)."""
    keep_every: int = 0
    """Also keep `checkpoints/update_NNNNNN.pt` every this many updates; 0 keeps only latest."""
    wandb: str = "offline"
    """Weights & Biases: offline | online | disabled."""
    wandb_project: str = "tpsrl"
    """Weights & Biases project name."""
    progress: bool = True
    """Show a progress bar with steps/s and ETA."""


@dataclass
class TrainConfig:
    """Everything `tpsrl-train` / `train()` needs; each component receives its own section."""

    env: GymEnvConfig = field(default_factory=GymEnvConfig)
    engine: EngineConfig = field(default_factory=EngineConfig)
    ppo: PPOConfig = field(default_factory=PPOConfig)
    policy: PolicyConfig = field(default_factory=PolicyConfig)
    run: RunConfig = field(default_factory=RunConfig)


class ConfigError(ValueError):
    """An invalid configuration value; the message names the field, the value and what is accepted."""


def _check(ok: bool, name: str, value: Any, accepted: str) -> None:
    if not ok:
        raise ConfigError(f"{name}={value!r} is invalid; accepted: {accepted}")


def validate(cfg: TrainConfig) -> None:
    """Raises `ConfigError` naming the first invalid field."""
    e, p, pol, r = cfg.engine, cfg.ppo, cfg.policy, cfg.run
    _check(e.mode in MODES, "engine.mode", e.mode, " | ".join(MODES))
    _check(e.num_envs >= 1, "engine.num_envs", e.num_envs, "an integer >= 1")
    _check(e.rollout_steps >= 1, "engine.rollout_steps", e.rollout_steps, "an integer >= 1")
    _check(
        1 <= e.min_batch <= e.num_envs,
        "engine.min_batch",
        e.min_batch,
        f"1 .. engine.num_envs ({e.num_envs})",
    )
    _check(
        e.max_batch == 0 or e.min_batch <= e.max_batch <= e.num_envs,
        "engine.max_batch",
        e.max_batch,
        f"0 (= num_envs) or engine.min_batch .. engine.num_envs ({e.num_envs})",
    )
    _check(
        e.envs_per_worker >= 0,
        "engine.envs_per_worker",
        e.envs_per_worker,
        "an integer >= 1, or 0 (one worker process per core)",
    )
    _check(
        e.batch_wait_ms >= 0, "engine.batch_wait_ms", e.batch_wait_ms, ">= 0 milliseconds (0: act at once)"
    )
    if e.act_in_workers and not e.serial:  # serial: no worker processes, the trainer acts
        _check(
            e.mode == "ver",
            "engine.mode",
            e.mode,
            "ver while engine.act_in_workers=true (add engine.act_in_workers=false for nover or sync)",
        )
    _check(
        not e.overlap_learning or e.act_in_workers,
        "engine.overlap_learning",
        e.overlap_learning,
        "false unless engine.act_in_workers=true",
    )
    _check(e.importance_weight_max > 0, "engine.importance_weight_max", e.importance_weight_max, "> 0")
    methods = mp.get_all_start_methods()
    _check(e.start_method in methods, "engine.start_method", e.start_method, " | ".join(methods))
    _check(e.step_timeout_s > 0, "engine.step_timeout_s", e.step_timeout_s, "> 0 seconds")
    _check(e.start_timeout_s > 0, "engine.start_timeout_s", e.start_timeout_s, "> 0 seconds")
    _check(p.lr >= 0, "ppo.lr", p.lr, ">= 0")
    _check(p.lr_schedule in LR_SCHEDULES, "ppo.lr_schedule", p.lr_schedule, " | ".join(LR_SCHEDULES))
    _check(0 <= p.lr_decay_start < 1, "ppo.lr_decay_start", p.lr_decay_start, "0 <= fraction < 1")
    _check(p.epochs >= 1, "ppo.epochs", p.epochs, "an integer >= 1")
    _check(
        p.obs_stats_until >= 0, "ppo.obs_stats_until", p.obs_stats_until, "an integer >= 0 (0: never stop)"
    )
    steps = e.rollout_steps * e.num_envs
    _check(
        p.num_minibatches >= 1 and steps % p.num_minibatches == 0,
        "ppo.num_minibatches",
        p.num_minibatches,
        f"an integer >= 1 dividing engine.rollout_steps x engine.num_envs = {steps}",
    )
    _check(0 < p.clip < 1, "ppo.clip", p.clip, "0 < clip < 1")
    _check(0 < p.gamma <= 1, "ppo.gamma", p.gamma, "0 < gamma <= 1")
    _check(0 <= p.gae_lambda <= 1, "ppo.gae_lambda", p.gae_lambda, "0 <= lambda <= 1")
    _check(p.max_grad_norm > 0, "ppo.max_grad_norm", p.max_grad_norm, "> 0")
    _check(
        p.max_sequence_length >= 0,
        "ppo.max_sequence_length",
        p.max_sequence_length,
        "an integer >= 0 (0: whole sequences)",
    )
    _check(
        0 < p.entropy_coef_min <= p.entropy_coef_max,
        "ppo.entropy_coef_min",
        p.entropy_coef_min,
        f"0 < entropy_coef_min <= entropy_coef_max ({p.entropy_coef_max})",
    )
    _check(
        p.entropy_coef_min <= p.entropy_coef_init <= p.entropy_coef_max,
        "ppo.entropy_coef_init",
        p.entropy_coef_init,
        f"within [{p.entropy_coef_min}, {p.entropy_coef_max}]",
    )
    _check(
        pol.image_encoder in IMAGE_ENCODERS,
        "policy.image_encoder",
        pol.image_encoder,
        " | ".join(IMAGE_ENCODERS),
    )
    _check(p.target_kl >= 0, "ppo.target_kl", p.target_kl, ">= 0 (0: no early stopping)")
    _check(pol.kind in KINDS, "policy.kind", pol.kind, " | ".join(KINDS))
    _check(pol.activation in ACTIVATIONS, "policy.activation", pol.activation, " | ".join(ACTIVATIONS))
    _check(pol.mlp_hidden >= 1, "policy.mlp_hidden", pol.mlp_hidden, "an integer >= 1")
    _check(pol.obs_clip > 0, "policy.obs_clip", pol.obs_clip, "a number > 0")
    _check(pol.mlp_layers >= 1, "policy.mlp_layers", pol.mlp_layers, "an integer >= 1")
    _check(pol.hidden_size >= 1, "policy.hidden_size", pol.hidden_size, "an integer >= 1")
    _check(pol.lstm_layers >= 1, "policy.lstm_layers", pol.lstm_layers, "an integer >= 1")
    _check(r.total_steps >= 1, "run.total_steps", r.total_steps, "an integer >= 1")
    _check(r.checkpoint_every >= 1, "run.checkpoint_every", r.checkpoint_every, "an integer >= 1")
    _check(r.wandb in WANDB_MODES, "run.wandb", r.wandb, " | ".join(WANDB_MODES))
    _check(bool(_DEVICE.fullmatch(r.device)), "run.device", r.device, "cpu | cuda | cuda:K")
    _validate_more(cfg)


_DEVICE = re.compile(r"cpu|cuda(:\d+)?")


def _validate_more(cfg: TrainConfig) -> None:
    """Every float finite, and the fields the first pass leaves out."""
    for section in ("env", "engine", "ppo", "policy", "run"):
        for f in dataclasses.fields(getattr(cfg, section)):
            value = getattr(getattr(cfg, section), f.name)
            if isinstance(value, float) and not math.isfinite(value):
                raise ConfigError(f"{section}.{f.name}={value!r} is invalid; accepted: a finite number")
    p, pol, r = cfg.ppo, cfg.policy, cfg.run
    _check(p.adam_eps > 0, "ppo.adam_eps", p.adam_eps, "> 0 (e.g. 1e-5)")
    _check(p.value_coef >= 0, "ppo.value_coef", p.value_coef, ">= 0")
    _check(p.entropy_coef_lr >= 0, "ppo.entropy_coef_lr", p.entropy_coef_lr, ">= 0 (0: a fixed coefficient)")
    _check(pol.image_features >= 1, "policy.image_features", pol.image_features, "an integer >= 1")
    _check(-20.0 <= pol.init_log_std <= 5.0, "policy.init_log_std", pol.init_log_std, "-20 .. 5")
    _check(
        all(math.isfinite(float(x)) for x in pol.init_action_mean),
        "policy.init_action_mean",
        list(pol.init_action_mean),
        "finite numbers, one per action dimension (empty: 0 everywhere)",
    )
    _check(r.torch_threads >= 0, "run.torch_threads", r.torch_threads, "an integer >= 0 (0: torch's default)")
    _check(r.keep_every >= 0, "run.keep_every", r.keep_every, "an integer >= 0 (0: keep only latest.pt)")
    _check(r.seed >= 0, "run.seed", r.seed, "an integer >= 0")
    _check(bool(r.dir.strip()), "run.dir", r.dir, "a non-empty directory path")
    _check(
        not r.init_from or Path(r.init_from).exists(),
        "run.init_from",
        r.init_from,
        "an existing run directory or checkpoint file, or '' (start from scratch)",
    )


def check_runtime(r: RunConfig) -> None:
    """Checks what depends on this machine (validate() checks values alone)."""
    if r.device.startswith("cuda"):
        import torch

        if not torch.cuda.is_available():
            raise ConfigError(
                f"run.device={r.device!r}: CUDA is not available on this machine; accepted: cpu"
            )
        index = int(r.device.split(":")[1]) if ":" in r.device else 0
        _check(
            index < torch.cuda.device_count(),
            "run.device",
            r.device,
            f"cpu, cuda, cuda:0 .. cuda:{torch.cuda.device_count() - 1}",
        )


def to_dict(cfg: TrainConfig) -> dict[str, Any]:
    return dataclasses.asdict(cfg)


def from_dict(data: dict[str, Any] | DictConfig, schema: type = TrainConfig) -> TrainConfig:
    """Builds a `TrainConfig` from a (possibly partial) nested dict; an unknown key or a value of the wrong
    type raises `ConfigError` with its path and the close matches of an unknown key."""
    try:
        if isinstance(data, DictConfig):  # a composed config keeps keys Hydra added with `+`: drop its types
            data = OmegaConf.to_container(data, resolve=True)  # type: ignore[assignment]
        merged = OmegaConf.merge(OmegaConf.structured(schema), data)
        return OmegaConf.to_object(merged)  # type: ignore[return-value]
    except OmegaConfBaseException as e:
        raise config_error(e, schema) from None


def config_error(e: OmegaConfBaseException, schema: type = TrainConfig) -> ConfigError:
    """An OmegaConf merge error as a one-line `ConfigError` naming the field and what is accepted."""
    path = str(getattr(e, "full_key", None) or "")
    if isinstance(e, ConfigKeyError) and path:
        parent, _, key = path.rpartition(".")
        known = _field_names(schema, parent)
        close = difflib.get_close_matches(key, known, n=3, cutoff=0.6)
        hint = f"did you mean {' or '.join(f'{parent}.{c}'.lstrip('.') for c in close)}? " if close else ""
        return ConfigError(f"{path}: unknown field; {hint}accepted: {', '.join(known)}")
    first = str(e).splitlines()[0] if str(e) else type(e).__name__
    value = getattr(e, "value", None)
    where = (f"{path}={value!r}" if value is not None else path) if path else "config"
    return ConfigError(f"{where} is invalid: {first}")


def _field_names(schema: type, dotted: str) -> list[str]:
    """Field names of the dataclass at `dotted` inside `schema` (empty: the root)."""
    cls: Any = schema
    for part in filter(None, dotted.split(".")):
        types = {f.name: f.default_factory for f in dataclasses.fields(cls)}  # type: ignore[misc]
        factory = types.get(part)
        if not callable(factory) or not dataclasses.is_dataclass(factory):
            return []
        cls = factory
    return [f.name for f in dataclasses.fields(cls)] if dataclasses.is_dataclass(cls) else []


# Policy fields a fine-tune (`run.init_from`) may set other than its source did: they build no weight.
INIT_FREE_POLICY_FIELDS = ("policy.obs_clip",)

# Fields that may differ between a run and its resumption (they do not change what is learned).
RESUMABLE_CHANGES = (
    "run.",
    "engine.serial",
    "engine.trace_acting",
    "engine.act_in_workers",
    "engine.overlap_learning",
    "engine.envs_per_worker",
    "engine.start_method",
    "engine.step_timeout_s",
    "engine.start_timeout_s",
)


def changed_fields(old: dict[str, Any], new: dict[str, Any], prefix: str = "") -> list[str]:
    """Dotted names of leaves that differ between two nested config dicts."""
    out: list[str] = []
    for key in sorted(set(old) | set(new)):
        a, b, name = old.get(key), new.get(key), f"{prefix}{key}"
        if isinstance(a, dict) and isinstance(b, dict) and not name.endswith("kwargs"):
            out += changed_fields(a, b, name + ".")
        elif a != b:
            out.append(name)
    return out


def register_configs() -> None:
    """Registers the typed schema with Hydra's ConfigStore (called by the entry points, not on import)."""
    from hydra.core.config_store import ConfigStore

    ConfigStore.instance().store(name="train_schema", node=TrainConfig, replace=True)
