"""Training: `train(cfg, env_factory)` for Python callers, and `compose_config(overrides)` for the
`tpsrl-train` config (the command itself is `skills/train.py`, which adds `skill=<name>`:
`tpsrl-train env.id=Pendulum-v1 engine.mode=ver run.total_steps=200000`).

The loop reads like the algorithm: collect a rollout, learn from it, log, checkpoint.
"""

from __future__ import annotations

import random
import signal
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tpsrl.config import config_dir
from tpsrl.engine import checkpoint as ckpt
from tpsrl.engine.acting import ActingCollector
from tpsrl.engine.collector import Collector, build_collector
from tpsrl.engine.config import (
    INIT_FREE_POLICY_FIELDS,
    RESUMABLE_CHANGES,
    ConfigError,
    RunConfig,
    TrainConfig,
    changed_fields,
    check_runtime,
    from_dict,
    register_configs,
    to_dict,
    validate,
)
from tpsrl.engine.envs import EnvContractError, EnvFactory, GymEnvFactory, probe_spaces, space_to_dict
from tpsrl.engine.logger import Logger, episode_metrics
from tpsrl.engine.policy import ActorCritic
from tpsrl.engine.ppo import PPO
from tpsrl.engine.rundir import RunDirError as RunDirError  # re-exported: raised by train()
from tpsrl.engine.rundir import claim_run_dir, use_run_temp_dir
from tpsrl.engine.workers import WorkerError


def changed_since(saved: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """Dotted names of the fields of config `now` that differ from a checkpoint's `saved` config; a field
    the checkpoint predates (missing from `saved`) counts only when `now` moves it off its default, as
    at its default it is what that run did."""
    defaults = to_dict(TrainConfig())
    return [
        f
        for f in changed_fields(saved, now)
        if _leaf(saved, f) is not None or _leaf(now, f) != _leaf(defaults, f)
    ]


def _leaf(config: dict[str, Any], dotted: str) -> Any:
    """The value at a dotted name of a nested config dict (None where it is missing)."""
    node: Any = config
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    return node


@dataclass
class TrainResult:
    """What a finished (or stopped) run leaves behind."""

    run_dir: Path
    counters: ckpt.Counters
    history: list[dict[str, Any]] = field(default_factory=list)
    interrupted: bool = False
    stop_signal: int = 0
    """The signal that stopped the run (SIGINT or SIGTERM), 0 if none."""


def prepare_run_dir(run: RunConfig) -> Path:
    """Claims the run directory (see `rundir.claim_run_dir`), refusing an existing one unless resuming."""
    return claim_run_dir(Path(run.dir), run.resume)


class StopFlag:
    """The first Ctrl-C or SIGTERM (what `timeout`, Slurm and Kubernetes send) asks the loop to stop at
    the next safe point and checkpoint; a second Ctrl-C aborts. A second SIGTERM is ignored: `timeout`
    sends one to its command and one to the command's process group, which can reach the trainer apart
    (before, such a copy aborted the stop half-way: 3 of 8 pick runs stopped by `timeout` on 16 cores)."""

    def __init__(self) -> None:
        self.requested = False
        self.signum = 0

    def __call__(self) -> bool:
        return self.requested

    def _handle(self, signum: int, frame: Any) -> None:
        if self.requested:
            if signum == signal.SIGTERM:
                return  # already stopping: a copy of the stop request, not a second request
            raise KeyboardInterrupt
        self.requested, self.signum = True, signum
        print(
            f"\ntpsrl-train: {signal.Signals(signum).name}: stopping after the current step and writing a "
            "checkpoint (Ctrl-C again to abort)",
            file=sys.stderr,
        )


STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


@contextmanager
def sigint_stops(flag: StopFlag) -> Iterator[StopFlag]:
    """Routes SIGINT and SIGTERM to `flag` while inside (main thread only: signals are delivered there)."""
    if threading.current_thread() is not threading.main_thread():
        yield flag
        return
    previous = {s: signal.signal(s, flag._handle) for s in STOP_SIGNALS}
    try:
        yield flag
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _factories(cfg: TrainConfig, env_factory: EnvFactory | Sequence[EnvFactory] | None) -> list[EnvFactory]:
    n = cfg.engine.num_envs
    if env_factory is None:
        return [GymEnvFactory(cfg.env.id, dict(cfg.env.kwargs))] * n
    if isinstance(env_factory, Sequence):
        if len(env_factory) != n:
            raise ConfigError(
                f"{len(env_factory)} env factories given for engine.num_envs={n}; pass one or N"
            )
        return list(env_factory)
    return [env_factory] * n


def probe(factory: EnvFactory) -> tuple[Any, Any]:
    """The spaces of `factory`'s env; a gymnasium id that cannot be made (`env.id`, `env.kwargs`) or
    breaks the contract raises a one-line `ConfigError`; a caller's own factory raises as it does."""
    if not isinstance(factory, GymEnvFactory):
        return probe_spaces(factory)
    env_id, kwargs = factory.id, factory.kwargs
    try:
        return probe_spaces(factory, reset=True)
    except EnvContractError as e:
        raise ConfigError(f"env.id={env_id!r}: {e}") from None
    except Exception as e:  # gymnasium's and the env constructor's own errors
        first = (str(e).strip().splitlines() or [""])[0]
        field_name = "env.kwargs" if kwargs and isinstance(e, TypeError | ValueError | OSError) else "env.id"
        value = kwargs if field_name == "env.kwargs" else env_id
        raise ConfigError(
            f"{field_name}={value!r} is invalid: {type(e).__name__}: {first}; accepted: a registered gymnasium "
            "id with continuous (Box) actions, and the keyword arguments its constructor takes"
        ) from None


def _seed_all(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed % 2**32)
    torch.manual_seed(seed)


class Trainer:
    """Holds the policy, learner, collector and counters of one run."""

    def __init__(
        self,
        cfg: TrainConfig,
        factories: list[EnvFactory],
        run_dir: Path,
        meta: dict[str, Any] | None = None,
        init_state: dict[str, Any] | None = None,
    ) -> None:
        """`init_state`: the checkpoint of `run.init_from` (see `load_init_state`) for a new run."""
        self.cfg, self.run_dir, self.meta = cfg, run_dir, dict(meta or {})
        self.device = torch.device(cfg.run.device)
        obs_space, action_space = probe(factories[0])
        self.spaces = {"observation": space_to_dict(obs_space), "action": space_to_dict(action_space)}
        try:
            self.policy = ActorCritic(obs_space, action_space.shape[0], cfg.policy).to(self.device)
        except ValueError as e:  # a setting that depends on the env's spaces (policy.init_action_mean)
            raise ConfigError(str(e)) from None
        self.learner = PPO(self.policy, cfg.ppo, self.device, cfg.run.seed)
        self.counters = ckpt.Counters()
        self.provenance: list[dict[str, Any]] = []
        if cfg.run.resume:
            self._restore()
        elif init_state is not None:
            self.policy.load_state_dict(init_state["model"])
            self.provenance.append(
                {
                    "init_from": str(Path(cfg.run.init_from).resolve()),
                    "init_env_steps": ckpt.trained_env_steps(init_state),
                    "init_meta": init_state.get("meta", {}),
                    "init_provenance": init_state.get("provenance", []),
                    "init_curve": ckpt.curve_behind(init_state),  # a shipped skill's training curve, if any
                }
            )
        self.provenance.append({**ckpt.code_version(), "env_steps": self.counters.env_steps})
        steps = cfg.engine.rollout_steps * cfg.engine.num_envs
        self.steps_per_update = steps
        self.total_updates = -(-cfg.run.total_steps // steps)
        # Fresh env seeds per (re)start so a resumed run does not replay the episodes it has seen.
        env_seed = cfg.run.seed * 1_000_003 + self.counters.updates * 7919
        self.collector: Collector | ActingCollector = build_collector(
            cfg.engine,
            factories,
            self.policy,
            obs_space,
            action_space,
            device=self.device,
            seed=env_seed,
            gamma=cfg.ppo.gamma,
            lam=cfg.ppo.gae_lambda,
        )

    def _restore(self) -> None:
        state = ckpt.load(self.run_dir / "checkpoints" / ckpt.LATEST, self.device)
        now = to_dict(self.cfg)
        every = changed_since(state["config"], now)
        changed = [f for f in every if not f.startswith(RESUMABLE_CHANGES)]
        for f in every:  # allowed, but a forgotten override on the command line should not pass unseen
            before = _leaf(state["config"], f)
            if f not in changed and not f.startswith("run.") and before is not None:  # None: a newer field
                print(
                    f"tpsrl-train: resuming with {f}={_leaf(now, f)!r} (the run had {before!r})",
                    file=sys.stderr,
                )
        if state.get("meta", {}) != self.meta:  # first: the task decides fields derived from it (its spaces)
            raise ConfigError(
                f"run.resume=true but the run in {self.run_dir} was started with {state.get('meta', {})}, "
                f"not {self.meta}"
            )
        if changed:
            raise ConfigError(
                f"run.resume=true but these fields differ from the run in {self.run_dir}: {', '.join(changed)}; "
                f"only run.* and {', '.join(RESUMABLE_CHANGES[1:])} may change on resume"
            )
        self.policy.load_state_dict(state["model"])
        self.learner.load_state_dict(state["learner"])
        self.counters = ckpt.Counters(**state["counters"])
        self.provenance = list(state.get("provenance", []))
        ckpt.set_rng_state(state["rng"])

    def save(self) -> Path:
        keep = bool(self.cfg.run.keep_every) and self.counters.updates % self.cfg.run.keep_every == 0
        return ckpt.save(
            self.run_dir / "checkpoints",
            self.policy,
            self.learner.state_dict(),
            self.counters,
            to_dict(self.cfg),
            spaces=self.spaces,
            meta=self.meta,
            provenance=self.provenance,
            keep=keep,
        )

    def step(self, stop: StopFlag) -> dict[str, Any] | None:
        """One update: collect a rollout, learn from it. Returns its metrics, or None if stopped."""
        t0, c0 = time.perf_counter(), time.thread_time()
        rollout = self.collector.collect(stop)
        if rollout is None:
            return None
        t1, c1 = time.perf_counter(), time.thread_time()
        metrics = self.learner.update(rollout, self.counters.updates, self.total_updates)
        t2, c2 = time.perf_counter(), time.thread_time()
        c = self.counters
        c.updates += 1
        c.env_steps += self.steps_per_update
        c.episodes += len(rollout.episodes)
        s = self.collector.stats
        metrics.update(episode_metrics(rollout.episodes))
        metrics.update(
            {
                "update": c.updates,
                "env_steps": c.env_steps,
                "episodes": c.episodes,
                "time/collect_s": t1 - t0,
                "time/learn_s": t2 - t1,
                "time/collect_cpu_s": c1 - c0,
                "time/learn_cpu_s": c2 - c1,
                "sps/total": self.steps_per_update / (t2 - t0),
                "sps/collect": self.steps_per_update / (t1 - t0),
                "collect/inference_calls": s.inference_calls,
                "collect/carried_in": s.carried_in,
                "collect/carried_out": s.carried_out,
                "collect/min_env_steps": s.min_env_steps,
                "collect/max_env_steps": s.max_env_steps,
                "collect/mean_weight": float(rollout.weights[rollout.slots].mean()),
            }
        )
        return metrics


def load_init_state(cfg: TrainConfig, factory: EnvFactory) -> dict[str, Any] | None:
    """The checkpoint a new run starts from (`run.init_from`), checked against the run's spaces and
    policy settings before anything is written; None for a fresh or resumed run."""
    source = cfg.run.init_from
    if not source or cfg.run.resume:
        return None
    field = f"run.init_from={source!r}"
    try:
        state = ckpt.read(source)
    except ckpt.CheckpointError as e:
        raise ConfigError(f"{field}: {e}") from None
    changed = [
        f
        for f in changed_since(state["config"], to_dict(cfg))
        if f.startswith("policy.") and f not in INIT_FREE_POLICY_FIELDS
    ]
    if changed:
        raise ConfigError(
            f"{field}: its policy was built with other {', '.join(changed)}; pass the same policy "
            "settings (they are in its config)"
        )
    obs_space, action_space = probe(factory)
    spaces = {"observation": space_to_dict(obs_space), "action": space_to_dict(action_space)}
    for part in ("observation", "action"):
        if state["spaces"][part] != spaces[part]:
            raise ConfigError(
                f"{field}: its {part} space {state['spaces'][part]} differs from this run's {spaces[part]}; "
                "start from a policy trained with the same observations and actions"
            )
    return state


def train(
    cfg: TrainConfig,
    env_factory: EnvFactory | Sequence[EnvFactory] | None = None,
    meta: dict[str, Any] | None = None,
) -> TrainResult:
    """Trains a policy with PPO on environments from `env_factory` (one factory for all N environments,
    or a sequence of N), or from the registered gymnasium id `cfg.env.id` when None. `meta` (plain data,
    opaque to the engine) is stored in every checkpoint and must match on resume.

    Raises `ConfigError` for invalid configs, `RunDirError` for run-directory misuse and `WorkerError`
    (after writing a checkpoint and stopping every worker) when an environment fails.
    """
    if not isinstance(cfg, TrainConfig):
        cfg = from_dict(cfg)
    validate(cfg)
    check_runtime(cfg.run)
    factories = _factories(cfg, env_factory)
    init_state = load_init_state(cfg, factories[0])
    run_dir = prepare_run_dir(cfg.run)
    use_run_temp_dir()
    _seed_all(cfg.run.seed)
    if cfg.run.torch_threads:
        torch.set_num_threads(cfg.run.torch_threads)
    with sigint_stops(StopFlag()) as stop:
        trainer = Trainer(cfg, factories, run_dir, meta, init_state)
        return _loop(cfg, trainer, stop)


def _loop(cfg: TrainConfig, trainer: Trainer, stop: StopFlag) -> TrainResult:
    """Collect, learn, log, checkpoint until done or stopped; always leaves a checkpoint behind."""
    run_dir = trainer.run_dir
    result = TrainResult(run_dir, trainer.counters)
    resume_update = trainer.counters.updates if cfg.run.resume else None
    saved_at = trainer.counters.updates
    logger: Logger | None = None
    try:
        logger = Logger(
            run_dir,
            mode=cfg.run.wandb,
            project=cfg.run.wandb_project,
            config=to_dict(cfg),
            total_steps=cfg.run.total_steps,
            initial_steps=trainer.counters.env_steps,
            progress=cfg.run.progress,
            resume_update=resume_update,
        )
        while trainer.counters.env_steps < cfg.run.total_steps and not stop():
            try:
                metrics = trainer.step(stop)
            except WorkerError:
                if not stop():
                    raise
                # A stop signal sent to the whole process group (`timeout`, Slurm) ends the workers too
                # (and the forkserver: its workers then read as exit code 255): that is the stop.
                break
            if metrics is None:
                break
            result.history.append(metrics)
            logger.log(metrics, trainer.counters.env_steps, trainer.steps_per_update)
            if trainer.counters.updates % cfg.run.checkpoint_every == 0:
                trainer.save()
                saved_at = trainer.counters.updates
        result.interrupted, result.stop_signal = stop(), stop.signum
    finally:
        # Model and optimizer are only changed inside an update, so this is a consistent state even after
        # a worker failure or a second Ctrl-C between updates.
        try:
            if trainer.counters.updates != saved_at or not (run_dir / "checkpoints" / ckpt.LATEST).exists():
                trainer.save()
        finally:
            trainer.collector.close()
            if logger is not None:
                logger.close()
    return result


def compose_config(overrides: Sequence[str] = ()) -> TrainConfig:
    """The `tpsrl-train` config with Hydra overrides applied, as a typed `TrainConfig` (Python API)."""
    from hydra import compose, initialize_config_dir

    register_configs()
    with initialize_config_dir(config_dir=str(config_dir())):
        cfg = compose(config_name="train", overrides=list(overrides))
    return from_dict(cfg)
