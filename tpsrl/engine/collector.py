"""Experience collection for the three modes, one code path:

- `ver`: dynamic batches of whichever environments are ready (between `min_batch` and `max_batch`, least
  contributed first), no per-environment quota; the rollout ends at T x N completed steps and steps
  still in flight land in the next rollout.
- `nover`: the same asynchronous loop with a quota of T steps per environment.
- `sync`: the quota of T plus a batch of all N environments (step all, wait for all).

Room for multi-GPU VER: `collect(stop=...)` is the hook for straggler preemption (a rank stops when the
others have collected enough), and the target step count is per collector.
"""

from __future__ import annotations

import collections
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import gymnasium as gym
import torch
from torch import Tensor

from tpsrl.engine import shm
from tpsrl.engine.buffer import Rollout, RolloutBuffer
from tpsrl.engine.envs import EnvFactory
from tpsrl.engine.policy import ActorCritic
from tpsrl.engine.workers import Command, EnvPool, ProcessPool, Reply, SerialPool, command, decode

MODES = ("ver", "nover", "sync")
_STEP = command(Command.STEP)  # the same bytes every time: encode once


@dataclass
class EngineConfig:
    """Collection: mode, environments and workers."""

    mode: str = "ver"
    """Collection mode: ver (variable experience rollout) | nover (async, fixed T per env) | sync (DD-PPO)."""
    num_envs: int = 16
    """N, the number of environments (one worker process each)."""
    rollout_steps: int = 128
    """T; every rollout holds T x N steps."""
    min_batch: int = 1
    """ver/nover: smallest inference batch to wait for (capped by the environments that can still reply)."""
    max_batch: int = 0
    """ver/nover: largest inference batch; 0 means N."""
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
class Plan:
    """How the shared loop behaves in a given mode."""

    quota: int | None
    """Max steps per env per rollout (None: no quota)."""
    min_batch: int
    max_batch: int


def plan_for(cfg: EngineConfig) -> Plan:
    n = cfg.num_envs
    if cfg.mode == "ver":
        return Plan(None, cfg.min_batch, cfg.max_batch or n)
    if cfg.mode == "nover":
        return Plan(cfg.rollout_steps, cfg.min_batch, cfg.max_batch or n)
    if cfg.mode == "sync":
        return Plan(cfg.rollout_steps, n, n)
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
    """Drives the environments with the policy and fills the rollout buffer."""

    def __init__(self, cfg: EngineConfig, pool: EnvPool, policy: ActorCritic, obs_space: gym.spaces.Dict,
                 action_space: gym.spaces.Box, device: torch.device, seed: int, gamma: float,
                 lam: float) -> None:  # fmt: skip
        self.cfg, self.pool, self.policy, self.device = cfg, pool, policy, device
        self.plan = plan_for(cfg)
        self.gamma, self.lam, self.seed = gamma, lam, seed
        n, a = cfg.num_envs, action_space.shape[0]
        self.keys = list(obs_space.spaces)
        self.low = torch.as_tensor(action_space.low, dtype=torch.float32)
        self.high = torch.as_tensor(action_space.high, dtype=torch.float32)
        self.buffer = RolloutBuffer(cfg.rollout_steps * n + n, obs_space, a, policy.state_shape())
        self.state = torch.zeros(n, *policy.state_shape())
        self.prev_action = torch.zeros(n, a)
        self.episode_start = torch.ones(n, dtype=torch.bool)
        self.pending = torch.full((n,), -1, dtype=torch.long)  # slot of the step in flight, or -1
        self.contributed = torch.zeros(n, dtype=torch.long)  # steps allocated this rollout
        self.ready: set[int] = set()
        self.backlog: collections.deque[tuple[int, bytes]] = collections.deque()  # arrived, not yet used
        self.episodes: list[dict] = []
        self.truncated: list[tuple[int, int]] = []  # (env, slot) awaiting a bootstrap value
        self.stats = CollectStats()
        self.started = False
        self.handlers: dict[Reply, Callable[[int, object], None]] = {
            Reply.RESET_DONE: self._on_reset,
            Reply.STEPPED: self._on_step,
            Reply.EPISODE_END: self._on_step,
        }

    # ----- replies
    def _on_reset(self, env: int, payload: object) -> None:
        self.ready.add(env)

    def _on_step(self, env: int, episode: object) -> None:
        v = self.pool.views
        slot = int(self.pending[env])
        terminated, truncated = bool(v["terminated"][env]), bool(v["truncated"][env])
        self.buffer.complete_step(slot, float(v["reward"][env]), terminated, truncated)
        self.pending[env] = -1
        self.episode_start[env] = terminated or truncated
        if truncated and not terminated:
            self.truncated.append((env, slot))
        if episode is not None:
            self.episodes.append(episode)  # type: ignore[arg-type]
        self.ready.add(env)

    def _dispatch(self, replies: Sequence[tuple[int, bytes]]) -> None:
        for env, message in replies:
            kind, payload = decode(env, message)
            self.handlers[kind](env, payload)

    # ----- policy calls
    def _obs(self, envs: list[int], prefix: str = "obs") -> dict[str, Tensor]:
        return {
            k: torch.from_numpy(self.pool.views[f"{prefix}/{k}"][envs]).to(self.device) for k in self.keys
        }

    def _inputs(self, envs: list[int]) -> tuple[Tensor, Tensor, Tensor]:
        """Env index `[B]`, previous action `[B, A]` and state `[B, layers, 2, H]`, zeroed at episode starts."""
        idx = torch.tensor(envs, dtype=torch.long)
        keep = (~self.episode_start[idx]).float()
        return idx, self.prev_action[idx] * keep[:, None], self.state[idx] * keep[:, None, None, None]

    def _value(self, obs: dict[str, Tensor], prev: Tensor, state: Tensor) -> Tensor:
        return self.policy.value(obs, prev.to(self.device), state.to(self.device)).cpu()

    def _bootstrap_truncated(self) -> None:
        """Value of the final observation of truncated episodes, after that step (its action, new state)."""
        envs, slots = zip(*self.truncated, strict=True)
        idx = torch.tensor(envs)
        values = self._value(self._obs(list(envs), "final_obs"), self.prev_action[idx], self.state[idx])
        self.buffer.truncation_value[list(slots)] = values
        self.truncated = []

    def _act(self, envs: list[int]) -> None:
        idx, prev, state = self._inputs(envs)
        obs = self._obs(envs)
        action, log_prob, value, next_state = self.policy.act(
            obs, prev.to(self.device), state.to(self.device)
        )
        action = action.cpu()
        # Send first, book-keep after: the environments step while the buffer is written. Their replies
        # are only read by this thread's next `_receive`, after `pending` is set below.
        self.pool.views["action"][envs] = action.numpy()
        for e in envs:
            self.ready.discard(e)
            self.pool.send(e, _STEP)
        cpu_obs = {k: x.cpu() for k, x in obs.items()}
        slots = self.buffer.allocate(idx, cpu_obs, prev, state, self.episode_start[idx].clone(), action,
                                     log_prob.cpu(), value.cpu())  # fmt: skip
        self.state[idx] = next_state.cpu()
        self.prev_action[idx] = torch.maximum(torch.minimum(action, self.high), self.low)
        self.episode_start[idx] = False
        self.pending[idx] = slots
        self.contributed[idx] += 1
        self.stats.inference_calls += 1

    # ----- the loop
    def start(self) -> None:
        """Resets every environment (seeded) and waits for them."""
        for e in range(self.cfg.num_envs):
            self.pool.send(e, command(Command.RESET, seed=self.seed + e))
        while len(self.ready) < self.cfg.num_envs:
            self._dispatch(self.pool.poll())
        self.started = True

    def _eligible(self) -> list[int]:
        """Ready environments that may act, least contributed first."""
        envs = sorted(self.ready, key=lambda e: (int(self.contributed[e]), e))
        quota = self.plan.quota
        return envs if quota is None else [e for e in envs if int(self.contributed[e]) < quota]

    def _may_join(self) -> int:
        """Environments in flight that, once back, may act again this rollout."""
        flying = self.pending >= 0
        if self.plan.quota is not None:
            flying &= self.contributed < self.plan.quota
        return int(flying.sum())

    def _receive(self, target: int, block: bool) -> int:
        """Takes arrived replies (waiting for at least one if `block`), least contributed first, up to
        `target` completed steps; the rest stay in the backlog, in flight. Returns steps completed."""
        if not (block and self.backlog):
            self.backlog.extend(self.pool.poll(None if block else 0.0))
        if block and not self.backlog:
            raise RuntimeError("collector stalled: no environment in flight and none may act (engine bug)")
        if not self.backlog:
            return 0
        arrived = sorted(self.backlog, key=lambda r: (int(self.contributed[r[0]]), r[0]))
        self.backlog = collections.deque(arrived[target:])
        self._dispatch(arrived[:target])
        if self.truncated:
            self._bootstrap_truncated()
        return min(target, len(arrived))

    def _new_rollout(self) -> None:
        """Moves steps in flight to the front of the buffer; they count for this rollout."""
        keep = self.buffer.carry_pending()
        flying = self.pending >= 0
        self.pending[flying] = torch.searchsorted(keep, self.pending[flying])
        self.contributed = flying.long()
        self.stats = CollectStats(carried_in=len(keep))
        self.episodes = []

    def collect(self, stop: Callable[[], bool] | None = None) -> Rollout | None:
        """Collects one rollout of T x N completed steps; returns None if `stop()` became true."""
        if not self.started:
            self.start()
        self._new_rollout()
        target, done, t0 = self.cfg.rollout_steps * self.cfg.num_envs, 0, time.perf_counter()
        while done < target:
            if stop is not None and stop():
                return None
            done += self._receive(target - done, block=False)
            if done >= target:
                break
            eligible = self._eligible()
            if eligible and len(eligible) >= min(self.plan.min_batch, len(eligible) + self._may_join()):
                self._act(eligible[: self.plan.max_batch])
            else:
                done += self._receive(target - done, block=True)
        return self._finish(time.perf_counter() - t0)

    def _finish(self, seconds: float) -> Rollout:
        """Bootstrap values for environments with nothing in flight, then GAE and weights."""
        tail = torch.zeros(self.cfg.num_envs)
        idle = torch.nonzero(self.pending < 0).squeeze(1).tolist()
        if idle:
            idx, prev, state = self._inputs(idle)
            tail[idx] = self._value(self._obs(idle), prev, state)
        s = self.stats
        s.seconds, s.carried_out = seconds, int((self.pending >= 0).sum())
        done_per_env = self.contributed - (self.pending >= 0).long()
        s.min_env_steps, s.max_env_steps = int(done_per_env.min()), int(done_per_env.max())
        return self.buffer.finish(tail, self.gamma, self.lam, self.cfg.num_envs, self.cfg.rollout_steps,
                                  self.cfg.importance_weight_max, self.episodes)  # fmt: skip

    def close(self) -> None:
        self.pool.close()


def build_pool(cfg: EngineConfig, factories: Sequence[EnvFactory], spec: shm.ShmSpec) -> EnvPool:
    if cfg.serial:
        return SerialPool(factories, spec)
    return ProcessPool(factories, spec, cfg.start_method, cfg.step_timeout_s, cfg.start_timeout_s)


def build_collector(cfg: EngineConfig, factories: Sequence[EnvFactory], policy: ActorCritic,
                    obs_space: gym.spaces.Dict, action_space: gym.spaces.Box, device: torch.device,
                    seed: int, gamma: float, lam: float) -> Collector:  # fmt: skip
    """All the wiring of collection in one place: shared memory spec, workers, buffer, collector."""
    spec = shm.step_spec(obs_space, action_space)
    pool = build_pool(cfg, factories, spec)
    return Collector(cfg, pool, policy, obs_space, action_space, device, seed, gamma, lam)
