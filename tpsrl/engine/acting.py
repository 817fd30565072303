"""Acting in the environment workers (`engine.act_in_workers=true`): each worker process holds a copy of the
policy, chooses its own environments' actions and writes whole steps into shared memory; the trainer
publishes weights and gathers finished rollouts. No message per step and no trainer thread in the step
loop: on a CPU with as many worker processes as cores, the cores do little but simulate and act.

VER's rule is kept: the rollout ends at T x N steps in all, claimed a worker batch at a time from one
shared counter, with no per-environment quota, so a slow environment contributes fewer steps and the
importance weights correct for it as in `ver` mode. What changes is who acts: each worker acts for its
own `engine.envs_per_worker` environments in one batch (dynamic batching across workers is gone, which
costs nothing for a CPU policy: one call costs about the same for 1 or 8 environments).

With `engine.overlap_learning=true` the workers start the next rollout as soon as one is gathered and
act with the weights they have while the learner updates; the new weights are published at the start
of the next `collect` and each worker takes them at its next step (habitat-baselines' VER calls this
`overlap_rollouts_and_learn`). PPO's ratio uses the log-probabilities stored with each step, so steps
acted with the older weights are learned from correctly; the clip bounds how far they pull.

Weights travel through shared memory under a sequence lock (odd while being written): a worker that
reads a torn copy keeps its weights and tries again at its next step.
"""

from __future__ import annotations

import multiprocessing as mp
import pickle
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np
import torch

from tpsrl.engine import shm
from tpsrl.engine.buffer import Rollout, RolloutBuffer
from tpsrl.engine.collector import CollectStats, EngineConfig
from tpsrl.engine.envs import EnvFactory
from tpsrl.engine.policy import ActorCritic, NumpyActing, PolicyConfig
from tpsrl.engine.workers import (
    Command,
    EnvRunner,
    ProcessPool,
    Reply,
    WorkerError,
    command,
    decode,
    worker_groups,
)

_STEP = bytes([Command.STEP])
_VERSION, _CLAIMED, _TARGET = 0, 1, 2  # fields of the control block


@contextmanager
def held(lock: Any, timeout_s: float) -> Iterator[bool]:
    """`lock` held inside if it could be taken within `timeout_s` (yields whether it was): a process killed
    while holding a multiprocessing lock never releases it."""
    got = lock.acquire(timeout=timeout_s)
    try:
        yield got
    finally:
        if got:
            lock.release()


def row_spec(obs_space: gym.spaces.Dict, action_dim: int, state_shape: tuple[int, ...]) -> shm.ShmSpec:
    """One row per step: what the worker acted on and chose, and what came back."""
    spec: dict[str, tuple[tuple[int, ...], Any]] = {
        f"obs/{k}": (tuple(s.shape), np.dtype(s.dtype)) for k, s in obs_space.spaces.items()
    }
    f32, flag = np.dtype(np.float32), np.dtype(np.bool_)
    spec.update(
        {
            "prev_action": ((action_dim,), f32),
            "state": (state_shape, f32),
            "episode_start": ((), flag),
            "action": ((action_dim,), f32),
            "log_prob": ((), f32),
            "value": ((), f32),
            "reward": ((), f32),
            "terminated": ((), flag),
            "truncated": ((), flag),
            "truncation_value": ((), f32),
            "env": ((), np.dtype(np.int64)),
        }
    )
    return spec


def flat_state(policy: ActorCritic) -> torch.Tensor:
    """Every tensor of the policy's state dict, in its order, as one float64 vector (exact for float32
    weights and for the statistics' counts)."""
    return torch.cat([t.detach().reshape(-1).to("cpu", torch.float64) for t in policy.state_dict().values()])


def load_flat_state(policy: ActorCritic, flat: np.ndarray) -> None:
    """The inverse of `flat_state`, through `load_state_dict` (so the normalisers refresh their caches)."""
    state, at = {}, 0
    for k, t in policy.state_dict().items():
        n = t.numel()
        state[k] = torch.from_numpy(flat[at : at + n]).reshape(t.shape).to(t.dtype)
        at += n
    policy.load_state_dict(state)


@dataclass
class ActingShared:
    """What every acting worker gets at start-up (pickled once, at process creation): the spaces and
    policy settings to rebuild the policy, and the shared blocks (rows, tail values, weights, control)."""

    obs_space: gym.spaces.Dict
    action_space: gym.spaces.Box
    policy_cfg: PolicyConfig
    state_shape: tuple[int, ...]
    num_envs: int
    capacity: int
    """Rows per worker: T x N (one worker may take every step of a rollout)."""
    rows_block: Any
    tail_block: Any
    weights_block: Any
    control_block: Any
    weight_size: int
    lock: Any
    env_seed: int
    act_seed: int
    trace: bool

    def views(self, workers: int) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray]:
        """Numpy views of the blocks: rows `[W x capacity, ...]`, tail `[N]`, weights, control."""
        spec = row_spec(self.obs_space, self.action_space.shape[0], self.state_shape)
        rows = shm.views(self.rows_block, spec, workers * self.capacity)
        tail = np.frombuffer(memoryview(self.tail_block).cast("B"), np.float32, self.num_envs)
        weights = np.frombuffer(memoryview(self.weights_block).cast("B"), np.float64, self.weight_size)
        control = np.frombuffer(memoryview(self.control_block).cast("B"), np.int64, 3)
        return rows, tail, weights, control

    def serve(self, runners: dict[int, EnvRunner], worker: int, workers: int, conn: Any) -> None:
        """The worker's loop: reset its envs, then one rollout per COLLECT until CLOSE."""
        WorkerActor(self, runners, worker, workers).serve(conn)


class WorkerActor:
    """Worker side: the policy copy and the per-environment acting state of one worker's environments."""

    def __init__(
        self, shared: ActingShared, runners: dict[int, EnvRunner], worker: int, workers: int
    ) -> None:
        torch.set_num_threads(1)
        torch.manual_seed(shared.act_seed + worker)
        self.shared, self.runners = shared, runners
        self.envs = np.array(sorted(runners), np.int64)  # global indices
        self.rows, self.tail, self.weights, self.control = shared.views(workers)
        self.base = worker * shared.capacity
        space = shared.action_space
        self.low, self.high = space.low.astype(np.float32), space.high.astype(np.float32)
        self.policy = ActorCritic(shared.obs_space, space.shape[0], shared.policy_cfg)
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.keys = list(shared.obs_space.spaces)
        self.views = runners[int(self.envs[0])].views
        k = len(self.envs)
        self.state = np.zeros((k, *self.policy.state_shape()), np.float32)
        self.prev_action = np.zeros((k, space.shape[0]), np.float32)
        self.episode_start = np.ones(k, bool)
        self.version = -1
        self._traced: Callable[..., tuple[torch.Tensor, ...]] | None = None
        self.rng = np.random.default_rng(shared.act_seed + worker)
        self.fast = NumpyActing(self.policy, self.rng) if self.policy.numpy_actable() else None

    def serve(self, conn: Any) -> None:
        first = int(self.envs[0])
        for e in self.envs.tolist():
            reply = self.runners[e].handle(command(Command.RESET, seed=self.shared.env_seed + e))
            decode(e, reply)  # an ERROR reply raises here, and reaches the trainer as one
        while True:
            message = conn.recv_bytes()
            if message[0] == Command.CLOSE:
                for runner in self.runners.values():
                    runner.env.close()
                return
            summary = self.rollout()
            conn.send_bytes(
                first.to_bytes(4, "little", signed=True) + bytes([Reply.ROLLOUT_DONE]) + pickle.dumps(summary)
            )

    def _sync(self) -> None:
        """Takes newly published weights (sequence lock: an odd or moved version means a torn copy)."""
        v = int(self.control[_VERSION])
        if v == self.version or v % 2:
            return
        flat = self.weights.copy()
        if int(self.control[_VERSION]) != v:
            return
        load_flat_state(self.policy, flat)
        self.version = v
        if self.fast is not None:
            self.fast = NumpyActing(self.policy, self.rng)

    def _act(self, obs: dict[str, np.ndarray], prev: np.ndarray, state: np.ndarray) -> tuple[np.ndarray, ...]:
        """action, log_prob, value, next state (numpy) for a batch of this worker's envs."""
        if self.fast is not None:
            return *self.fast.act(obs), state
        t_obs = {k: torch.from_numpy(x) for k, x in obs.items()}
        t_prev, t_state = torch.from_numpy(prev), torch.from_numpy(state)
        with torch.inference_mode():
            if self._traced is None and self.shared.trace and self.policy.traceable():
                self._traced = self.policy.traced_act(t_obs, t_prev, t_state)
            act = self._traced or self.policy.act
            return tuple(x.numpy() for x in act(t_obs, t_prev, t_state))

    def _inputs(self, sel: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        keep = ~self.episode_start[sel]
        state = self.state[sel]
        return self.prev_action[sel] * keep[:, None], state * keep.reshape(-1, *[1] * (state.ndim - 1))

    def _value(self, prefix: str, sel: np.ndarray, prev: np.ndarray, state: np.ndarray) -> np.ndarray:
        obs = {k: self.views[f"{prefix}/{k}"][self.envs[sel]] for k in self.keys}
        if self.fast is not None:
            return self.fast.act(obs, deterministic=True)[2]
        t_obs = {k: torch.from_numpy(x) for k, x in obs.items()}
        with torch.inference_mode():
            return self.policy.act(t_obs, torch.from_numpy(prev), torch.from_numpy(state), True)[2].numpy()

    def _claim(self) -> int:
        """Steps this worker may take next (0: the rollout is full)."""
        with self.shared.lock:
            take = int(min(len(self.envs), self.control[_TARGET] - self.control[_CLAIMED]))
            if take > 0:
                self.control[_CLAIMED] += take
        return max(take, 0)

    def rollout(self) -> dict[str, Any]:
        """Steps its environments until the shared step count reaches the target; returns the rows
        written, the episodes that ended and the acting calls."""
        rows, views, at, calls, episodes = self.rows, self.views, self.base, 0, []
        contributed = np.zeros(len(self.envs), np.int64)
        while take := self._claim():
            self._sync()
            sel = np.argsort(contributed, kind="stable")[:take]  # least stepped first
            envs, r = self.envs[sel], slice(at, at + take)
            prev, state = self._inputs(sel)
            obs = {k: views[f"obs/{k}"][envs] for k in self.keys}
            a, log_prob, value, ns = self._act(obs, prev, state)
            for k, x in obs.items():
                rows[f"obs/{k}"][r] = x
            rows["prev_action"][r], rows["state"][r] = prev, state
            rows["episode_start"][r] = self.episode_start[sel]
            rows["action"][r], rows["log_prob"][r], rows["value"][r] = a, log_prob, value
            rows["env"][r] = envs
            views["action"][envs] = a
            for e in envs.tolist():
                reply = self.runners[e].handle(_STEP)
                if reply[0] != Reply.STEPPED:
                    kind, payload = decode(e, reply)
                    if kind is Reply.EPISODE_END:
                        episodes.append(payload)
            terminated, truncated = views["terminated"][envs], views["truncated"][envs]
            rows["reward"][r] = views["reward"][envs]
            rows["terminated"][r], rows["truncated"][r] = terminated, truncated
            clipped = np.clip(a, self.low, self.high)
            cut = truncated & ~terminated
            rows["truncation_value"][r] = 0.0
            if cut.any():
                rows["truncation_value"][at + np.flatnonzero(cut)] = self._value(
                    "final_obs", sel[cut], clipped[cut], ns[cut]
                )
            self.state[sel], self.prev_action[sel] = ns, clipped
            self.episode_start[sel] = terminated | truncated
            contributed[sel] += 1
            at += take
            calls += 1
        self.tail[self.envs] = self._value(
            "obs", np.arange(len(self.envs)), *self._inputs(np.arange(len(self.envs)))
        )
        return {"rows": at - self.base, "episodes": episodes, "calls": calls, "version": self.version}


class ActingCollector:
    """Trainer side of `engine.act_in_workers`: the same `collect(stop) -> Rollout | None` as `Collector`.

    Each `collect` publishes the policy's weights, (re)starts the workers unless they already run (the
    overlapped rollout), waits for every worker's ROLLOUT_DONE, copies the rows into the rollout buffer
    and returns GAE, returns and importance weights as `ver` mode does."""

    def __init__(
        self,
        cfg: EngineConfig,
        factories: list[EnvFactory],
        policy: ActorCritic,
        obs_space: gym.spaces.Dict,
        action_space: gym.spaces.Box,
        *,
        device: torch.device,
        seed: int,
        gamma: float,
        lam: float,
    ) -> None:
        self.cfg, self.policy, self.device = cfg, policy, device
        self.gamma, self.lam = gamma, lam
        n, t = cfg.num_envs, cfg.rollout_steps
        self.target, self.workers = t * n, len(worker_groups(n, cfg.envs_per_worker))
        self.buffer = RolloutBuffer(t * n, obs_space, action_space.shape[0], policy.state_shape())
        ctx = mp.get_context(cfg.start_method)
        spec = row_spec(obs_space, action_space.shape[0], policy.state_shape())
        weight_size = int(flat_state(policy).numel())
        self.shared = ActingShared(
            obs_space,
            action_space,
            policy.cfg,
            policy.state_shape(),
            n,
            t * n,
            rows_block=shm.allocate(spec, self.workers * t * n, ctx),
            tail_block=ctx.RawArray("f", n),
            weights_block=ctx.RawArray("d", weight_size),
            control_block=ctx.RawArray("q", 3),
            weight_size=weight_size,
            lock=ctx.Lock(),
            env_seed=seed,
            act_seed=seed + 104_729,
            trace=cfg.trace_acting,
        )
        self.rows, self.tail, self.weights, self.control = self.shared.views(self.workers)
        self.pool = ProcessPool(
            factories,
            shm.step_spec(obs_space, action_space),
            cfg.start_method,
            cfg.step_timeout_s,
            cfg.start_timeout_s,
            envs_per_worker=cfg.envs_per_worker,
            acting=self.shared,
        )
        self.firsts = [g.start for g in self.pool.groups]
        self.running = False
        self.stats = CollectStats()

    def _publish(self) -> None:
        flat = flat_state(self.policy).numpy()
        self.control[_VERSION] += 1  # odd: being written
        self.weights[:] = flat
        self.control[_VERSION] += 1

    def _start(self) -> None:
        with held(self.shared.lock, self.cfg.step_timeout_s) as got:
            if not got:
                raise WorkerError(
                    list(range(self.cfg.num_envs)),
                    f"the workers' shared step counter stayed locked for {self.cfg.step_timeout_s:.0f} s "
                    "(engine.step_timeout_s): a worker died holding it",
                )
            self.control[_CLAIMED], self.control[_TARGET] = 0, self.target
        for first in self.firsts:
            self.pool.send(first, bytes([Command.COLLECT]))
        self.running = True

    def collect(self, stop: Callable[[], bool] | None = None) -> Rollout | None:
        """Gathers one rollout of T x N steps; returns None if `stop()` became true first."""
        t0 = time.perf_counter()
        self._publish()
        if not self.running:
            self._start()
        done: dict[int, dict[str, Any]] = {}
        while len(done) < self.workers:
            if stop is not None and stop():
                return None
            for env, message in self.pool.poll(0.05):
                kind, payload = decode(env, message)
                if kind is Reply.ROLLOUT_DONE:
                    done[env] = payload
        self.running = False
        rollout = self._gather([done[f] for f in self.firsts])
        if self.cfg.overlap_learning:
            self._start()
        self.stats.seconds = time.perf_counter() - t0
        return rollout

    def _gather(self, summaries: list[dict[str, Any]]) -> Rollout:
        """Copies every worker's rows into the buffer (chronological per env) and finishes the rollout."""
        buf, at = self.buffer, 0
        for w, s in enumerate(summaries):
            src = slice(w * self.shared.capacity, w * self.shared.capacity + s["rows"])
            dst = slice(at, at + s["rows"])
            for k, x in buf.np_obs.items():
                x[dst] = self.rows[f"obs/{k}"][src]
            for k in (
                "prev_action",
                "state",
                "episode_start",
                "action",
                "log_prob",
                "value",
                "reward",
                "terminated",
                "truncated",
                "truncation_value",
                "env",
            ):
                buf.np[k][dst] = self.rows[k][src]
            at += s["rows"]
        if at != self.target:
            raise RuntimeError(f"acting workers wrote {at} steps for a rollout of {self.target} (engine bug)")
        buf.np["complete"][:at] = True
        buf.size = at
        steps = np.bincount(buf.np["env"][:at], minlength=self.cfg.num_envs)
        episodes = [e for s in summaries for e in s["episodes"]]
        self.stats = CollectStats(
            inference_calls=sum(s["calls"] for s in summaries),
            min_env_steps=int(steps.min()),
            max_env_steps=int(steps.max()),
        )
        tail = torch.from_numpy(self.tail.copy())
        rollout = buf.finish(
            tail,
            gamma=self.gamma,
            lam=self.lam,
            num_envs=self.cfg.num_envs,
            rollout_steps=self.cfg.rollout_steps,
            max_weight=self.cfg.importance_weight_max,
            episodes=episodes,
        )
        rollout.lagged = self.cfg.overlap_learning
        return rollout

    def close(self) -> None:
        # A worker killed inside the lock (a stop signal sent to the whole process group) leaves it held
        # forever: not waited on, as the pool ends its workers anyway.
        with held(self.shared.lock, 1.0) as got:
            if got:
                self.control[_TARGET] = self.control[_CLAIMED]  # workers mid-rollout stop at their next claim
        self.pool.close()
