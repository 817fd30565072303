"""Experience collection for the three modes, one code path:

- `ver`: dynamic batches of whichever environments are ready (between `min_batch` and `max_batch`, least
  contributed first), no per-environment quota; the rollout ends at T x N completed steps and steps
  still in flight land in the next rollout.
- `nover`: the same asynchronous loop with a quota of T steps per environment.
- `sync`: the quota of T plus a batch of all N environments (step all, wait for all).

Once `min_batch` environments are ready, the loop may wait up to `batch_wait_ms` for more (never past
`max_batch` or the environments that can still join): one acting call costs about the same for 1 or 16
environments. All per-environment bookkeeping is numpy (a torch scalar op costs ~30x more); torch is
used only for the policy call.

Room for multi-GPU VER: `collect(stop=...)` is the hook for straggler preemption (a rank stops when the
others have collected enough), and the target step count is per collector.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import gymnasium as gym
import numpy as np
import torch

from tpsrl.engine import shm
from tpsrl.engine.buffer import Rollout, RolloutBuffer
from tpsrl.engine.envs import EnvFactory
from tpsrl.engine.policy import ActorCritic
from tpsrl.engine.workers import (
    STEPPED,
    Command,
    EnvPool,
    EpisodeSummary,
    ProcessPool,
    Reply,
    SerialPool,
    command,
    decode,
)

if TYPE_CHECKING:
    from tpsrl.engine.acting import ActingCollector

MODES = ("ver", "nover", "sync")


@dataclass
class EngineConfig:
    """Collection: mode, environments and workers."""

    mode: str = "ver"
    """Collection mode: ver (variable experience rollout) | nover (async, fixed T per env) | sync (DD-PPO)."""
    num_envs: int = 16
    """N, the number of environments."""
    envs_per_worker: int = 1
    """Environments stepped by one worker process (one after the other); fewer processes than cores wastes
    none, more than cores costs context switches. 1 suits envs that wait (I/O, sleep, GPU); 0: one
    process per core (ceil(num_envs / cores) envs each), the choice with act_in_workers."""
    rollout_steps: int = 128
    """T; every rollout holds T x N steps."""
    min_batch: int = 1
    """ver/nover: smallest inference batch to wait for (capped by the environments that can still reply)."""
    max_batch: int = 0
    """ver/nover: largest inference batch; 0 means N."""
    batch_wait_ms: float = 0.0
    """ver/nover: once min_batch envs are ready, wait at most this long for more before acting (0: act at once)."""
    trace_acting: bool = True
    """ver/nover/sync: act through `ActorCritic.traced_act` (TorchScript) once the observation statistics
    exist: the same numbers at about half the cost of an eager call for the CPU presets; false: eager."""
    act_in_workers: bool = False
    """ver: each worker process acts for its own environments with a copy of the policy and writes whole
    steps to shared memory (`acting.py`): no message per step and no trainer thread in the step loop.
    Same rollout rule (T x N steps in all, no per-env quota); min_batch, max_batch and batch_wait_ms do
    not apply (a worker acts for its envs in one batch). For CPU policies with one worker per core.
    Ignored with serial (no worker processes)."""
    overlap_learning: bool = False
    """With act_in_workers: the workers collect the next rollout while the learner updates, acting with
    the weights they have; new weights reach them at the start of the next collection (one update of
    policy lag, like habitat-baselines' VER `overlap_rollouts_and_learn`)."""
    importance_weight_max: float = 1.0
    """Truncation of VER's importance weights (T + 1) / steps of the env."""
    serial: bool = False
    """Run all environments in this process (same code, no workers); for tests and debugging."""
    start_method: str = "forkserver"
    """multiprocessing start method of the workers: forkserver | spawn | fork."""
    step_timeout_s: float = 120.0
    """A worker silent for this long while stepping is reported as stuck and the run stops."""
    start_timeout_s: float = 300.0
    """Like step_timeout_s for a worker's first reply (process start, imports, env construction)."""


@dataclass(frozen=True)
class CollectPlan:
    """How the shared loop behaves in a given mode."""

    quota: int | None
    """Max steps per env per rollout (None: no quota)."""
    min_batch: int
    max_batch: int
    wait_s: float
    """Longest wait for a fuller batch once min_batch envs are ready."""


def plan_for(cfg: EngineConfig) -> CollectPlan:
    n, wait = cfg.num_envs, cfg.batch_wait_ms / 1000.0
    if cfg.mode == "ver":
        return CollectPlan(None, cfg.min_batch, cfg.max_batch or n, wait)
    if cfg.mode == "nover":
        return CollectPlan(cfg.rollout_steps, cfg.min_batch, cfg.max_batch or n, wait)
    if cfg.mode == "sync":
        return CollectPlan(cfg.rollout_steps, n, n, 0.0)
    raise ValueError(f"engine.mode={cfg.mode!r}; accepted: {', '.join(MODES)}")


@dataclass
class CollectStats:
    """Per-rollout collection figures for logging."""

    seconds: float = 0.0
    inference_calls: int = 0
    carried_in: int = 0
    carried_out: int = 0
    min_env_steps: int = 0
    max_env_steps: int = 0


class Collector:
    """Drives the environments with the policy and fills the rollout buffer.

    Per-environment bookkeeping (numpy, `[N]` or `[N, ...]`): `state` (recurrent state after the env's
    last chosen action), `prev_action` (that action, clipped), `episode_start`, `pending` (buffer slot
    of the step in flight, or -1), `contributed` (steps allocated this rollout), `ready` (may act now).

    The life of a step: `_act` chooses actions for a batch of ready environments, sends them, and while
    they step stores each one's observation, policy inputs and action in a new buffer slot (`pending[env]`
    = that slot). When an environment's reply arrives, `_complete` writes the reward and done flags into
    that slot and the environment is ready again. A rollout ends at T x N completed slots; steps still in
    flight then move to the front of the next rollout (`_new_rollout`) and complete there.
    """

    def __init__(
        self,
        cfg: EngineConfig,
        pool: EnvPool,
        policy: ActorCritic,
        obs_space: gym.spaces.Dict,
        action_space: gym.spaces.Box,
        *,
        device: torch.device,
        seed: int,
        gamma: float,
        lam: float,
    ) -> None:
        self.cfg, self.pool, self.policy, self.device = cfg, pool, policy, device
        self.plan = plan_for(cfg)
        self.gamma, self.lam, self.seed = gamma, lam, seed
        n, a = cfg.num_envs, action_space.shape[0]
        self.keys = list(obs_space.spaces)
        self.low = action_space.low.astype(np.float32)
        self.high = action_space.high.astype(np.float32)
        self.buffer = RolloutBuffer(cfg.rollout_steps * n + n, obs_space, a, policy.state_shape())
        self.state = np.zeros((n, *policy.state_shape()), np.float32)
        self.prev_action = np.zeros((n, a), np.float32)
        self.episode_start = np.ones(n, bool)
        self.pending = np.full(n, -1, np.int64)
        self.contributed = np.zeros(n, np.int64)
        self.ready = np.zeros(n, bool)
        self.backlog: list[tuple[int, bytes]] = []  # arrived, not yet used
        self.episodes: list[EpisodeSummary] = []
        self.truncated: list[tuple[int, int]] = []  # (env, slot) awaiting a bootstrap value
        self.stats = CollectStats()
        self.started = False
        self._wait_until: float | None = None  # deadline of the current wait for a fuller batch
        self._traced: Callable[..., tuple[torch.Tensor, ...]] | None = None  # see `_policy_act`
        self.handlers: dict[Reply, Callable[[int, object], None]] = {
            Reply.RESET_DONE: self._on_reset,
            Reply.EPISODE_END: self._on_episode_end,
        }

    # ----- replies
    def _on_reset(self, env: int, payload: object) -> None:
        self.ready[env] = True

    def _on_episode_end(self, env: int, episode: object) -> None:
        self.episodes.append(episode)  # type: ignore[arg-type]  # an EpisodeSummary
        self._complete(np.array([env]))

    def _complete(self, envs: np.ndarray) -> None:
        """Records the step results of `envs` `[B]` (read from shared memory) in their slots."""
        v = self.pool.views
        slots = self.pending[envs]
        terminated, truncated = v["terminated"][envs], v["truncated"][envs]
        self.buffer.complete_steps(slots, v["reward"][envs], terminated, truncated)
        self.pending[envs] = -1
        self.episode_start[envs] = terminated | truncated
        cut = truncated & ~terminated
        if cut.any():
            self.truncated += zip(envs[cut].tolist(), slots[cut].tolist(), strict=True)
        self.ready[envs] = True

    def _dispatch(self, replies: Sequence[tuple[int, bytes]]) -> None:
        """Plain steps are completed together; other replies go through `handlers`."""
        stepped = [env for env, message in replies if message == STEPPED]
        if stepped:
            self._complete(np.array(stepped))
        for env, message in replies:
            if message != STEPPED:
                kind, payload = decode(env, message)
                self.handlers[kind](env, payload)

    # ----- policy calls
    def _obs(self, envs: np.ndarray, prefix: str = "obs") -> dict[str, np.ndarray]:
        """`{key: [B, *shape]}` copies of the observations of `envs`."""
        return {k: self.pool.views[f"{prefix}/{k}"][envs] for k in self.keys}

    def _torch(self, x: np.ndarray) -> torch.Tensor:
        return torch.from_numpy(x).to(self.device)

    def _inputs(self, envs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Previous action `[B, A]` and state `[B, *state_shape]` of `envs`, zeroed at episode starts."""
        keep = ~self.episode_start[envs]
        state = self.state[envs]
        return self.prev_action[envs] * keep[:, None], state * keep.reshape(-1, *[1] * (state.ndim - 1))

    def _value(self, obs: dict[str, np.ndarray], prev: np.ndarray, state: np.ndarray) -> torch.Tensor:
        t = {k: self._torch(x) for k, x in obs.items()}
        return self.policy.value(t, self._torch(prev), self._torch(state)).cpu()

    def _bootstrap_truncated(self) -> None:
        """Value of the final observation of truncated episodes, after that step (its action, new state)."""
        envs, slots = (np.array(x) for x in zip(*self.truncated, strict=True))
        values = self._value(self._obs(envs, "final_obs"), self.prev_action[envs], self.state[envs])
        self.buffer.np["truncation_value"][slots] = values.numpy()
        self.truncated = []

    def _policy_act(
        self, obs: dict[str, torch.Tensor], prev: torch.Tensor, state: torch.Tensor
    ) -> tuple[torch.Tensor, ...]:
        """`policy.act`, traced once the observation statistics exist (`engine.trace_acting`). The trace
        follows the policy's in-place updates, so it is built once per collector."""
        if self._traced is None and self.cfg.trace_acting and self.policy.traceable():
            self._traced = self.policy.traced_act(obs, prev, state)
        if self._traced is not None:
            return self._traced(obs, prev, state)
        return self.policy.act(obs, prev, state)

    def _act(self, envs: np.ndarray) -> None:
        prev, state = self._inputs(envs)
        obs = self._obs(envs)
        t_obs = {k: self._torch(x) for k, x in obs.items()}
        action, log_prob, value, next_state = self._policy_act(t_obs, self._torch(prev), self._torch(state))
        a = action.cpu().numpy()
        # Send first, book-keep after: the environments step while the buffer is written. Their replies
        # are only read by this thread's next `_receive`, after `pending` is set below.
        self.pool.views["action"][envs] = a
        self.pool.step(envs.tolist())
        self.ready[envs] = False
        self.pending[envs] = self.buffer.allocate(
            envs, obs, prev, state, self.episode_start[envs], a, log_prob.cpu().numpy(), value.cpu().numpy()
        )
        self.state[envs] = next_state.cpu().numpy()
        self.prev_action[envs] = np.clip(a, self.low, self.high)
        self.episode_start[envs] = False
        self.contributed[envs] += 1
        self.stats.inference_calls += 1
        self._wait_until = None

    # ----- the loop
    def start(self) -> None:
        """Resets every environment (seeded) and waits for them."""
        for e in range(self.cfg.num_envs):
            self.pool.send(e, command(Command.RESET, seed=self.seed + e))
        while not self.ready.all():
            self._dispatch(self.pool.poll())
        self.started = True

    def _eligible(self) -> np.ndarray:
        """Ready environments that may act, least contributed first."""
        mask = self.ready if self.plan.quota is None else self.ready & (self.contributed < self.plan.quota)
        envs = np.flatnonzero(mask)
        return envs[np.argsort(self.contributed[envs], kind="stable")]

    def _may_join(self) -> int:
        """Environments in flight that, once back, may act again this rollout."""
        flying = self.pending >= 0
        if self.plan.quota is not None:
            flying &= self.contributed < self.plan.quota
        return int(flying.sum())

    def _receive(self, target: int, timeout: float | None) -> int:
        """Takes arrived replies (waiting up to `timeout`, or for at least one if None), least contributed
        first, up to `target` completed steps; the rest stay in the backlog, in flight. Returns the steps
        completed."""
        if timeout is not None or not self.backlog:
            self.backlog += self.pool.poll(timeout)
        if timeout is None and not self.backlog:
            raise RuntimeError("collector stalled: no environment in flight and none may act (engine bug)")
        if not self.backlog:
            return 0
        arrived = self.backlog
        if len(arrived) > target:
            arrived = sorted(arrived, key=lambda r: (int(self.contributed[r[0]]), r[0]))
        self.backlog = arrived[target:]
        self._dispatch(arrived[:target])
        if self.truncated:
            self._bootstrap_truncated()
        return min(target, len(arrived))

    def _batch_wait(self, ready: int, joinable: int) -> float:
        """Seconds still to wait for a fuller batch (0: act now)."""
        if self.plan.wait_s <= 0 or ready >= self.plan.max_batch or joinable == 0:
            return 0.0
        now = time.perf_counter()
        if self._wait_until is None:
            self._wait_until = now + self.plan.wait_s
        return max(0.0, self._wait_until - now)

    def _new_rollout(self) -> None:
        """Moves steps in flight to the front of the buffer; they count for this rollout."""
        keep = self.buffer.carry_pending()
        flying = self.pending >= 0
        # The step at old slot keep[i] is now at slot i (`keep` is ascending), so an environment's new
        # slot is where its old one sits in `keep`.
        self.pending[flying] = np.searchsorted(keep, self.pending[flying])
        self.contributed = flying.astype(np.int64)
        self.stats = CollectStats(carried_in=len(keep))
        self.episodes = []

    def collect(self, stop: Callable[[], bool] | None = None) -> Rollout | None:
        """Collects one rollout of T x N completed steps; returns None if `stop()` became true."""
        if not self.started:
            self.start()
        self._new_rollout()
        if self._traced is not None and not self.policy.traceable():  # empty statistics were loaded
            self._traced = None
        target, done, t0 = self.cfg.rollout_steps * self.cfg.num_envs, 0, time.perf_counter()
        with torch.inference_mode():  # entered once, not per acting call
            while done < target:
                if stop is not None and stop():
                    return None
                done += self._receive(target - done, timeout=0.0)
                if done >= target:
                    break
                eligible, joinable = self._eligible(), self._may_join()
                if len(eligible) == 0 or len(eligible) < min(self.plan.min_batch, len(eligible) + joinable):
                    done += self._receive(target - done, timeout=None)
                elif wait := self._batch_wait(len(eligible), joinable):
                    done += self._receive(target - done, timeout=wait)
                else:
                    self._act(eligible[: self.plan.max_batch])
        return self._finish(time.perf_counter() - t0)

    def _finish(self, seconds: float) -> Rollout:
        """Bootstrap values for environments with nothing in flight, then GAE and weights."""
        tail = torch.zeros(self.cfg.num_envs)
        idle = np.flatnonzero(self.pending < 0)
        if len(idle):
            tail[torch.from_numpy(idle)] = self._value(self._obs(idle), *self._inputs(idle))
        s = self.stats
        s.seconds, s.carried_out = seconds, int((self.pending >= 0).sum())
        done_per_env = self.contributed - (self.pending >= 0)
        s.min_env_steps, s.max_env_steps = int(done_per_env.min()), int(done_per_env.max())
        return self.buffer.finish(
            tail,
            gamma=self.gamma,
            lam=self.lam,
            num_envs=self.cfg.num_envs,
            rollout_steps=self.cfg.rollout_steps,
            max_weight=self.cfg.importance_weight_max,
            episodes=self.episodes,
        )

    def close(self) -> None:
        self.pool.close()


def build_pool(cfg: EngineConfig, factories: Sequence[EnvFactory], spec: shm.ShmSpec) -> EnvPool:
    if cfg.serial:
        return SerialPool(factories, spec)
    return ProcessPool(
        factories,
        spec,
        cfg.start_method,
        cfg.step_timeout_s,
        cfg.start_timeout_s,
        envs_per_worker=cfg.envs_per_worker,
    )


def build_collector(
    cfg: EngineConfig,
    factories: Sequence[EnvFactory],
    policy: ActorCritic,
    obs_space: gym.spaces.Dict,
    action_space: gym.spaces.Box,
    *,
    device: torch.device,
    seed: int,
    gamma: float,
    lam: float,
) -> Collector | ActingCollector:
    """All the wiring of collection in one place: shared memory spec, workers, buffer, collector."""
    if cfg.act_in_workers and not cfg.serial:
        from tpsrl.engine.acting import ActingCollector

        return ActingCollector(
            cfg,
            list(factories),
            policy,
            obs_space,
            action_space,
            device=device,
            seed=seed,
            gamma=gamma,
            lam=lam,
        )
    spec = shm.step_spec(obs_space, action_space)
    pool = build_pool(cfg, factories, spec)
    return Collector(
        cfg, pool, policy, obs_space, action_space, device=device, seed=seed, gamma=gamma, lam=lam
    )
