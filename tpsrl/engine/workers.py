"""Environment workers: processes that each step `engine.envs_per_worker` environments, speaking an explicit
message protocol.

Main -> worker: a `Command` byte, then the worker-local env indices it applies to (STEP may name several:
one message for all of a worker's envs in an inference batch), then a payload (RESET: an 8-byte seed).
Worker -> main, per env:
- a completed step with nothing to report is a 4-byte record (the env index) on one pipe shared by all
  workers, so the trainer collects every finished step with a single read;
- every other reply (RESET_DONE, EPISODE_END with its pickled statistics, ERROR with its traceback,
  CLOSED) goes on the worker's own pipe as the env index, a `Reply` byte and the payload.
Step inputs and outputs travel through shared memory (`shm.py`). `EnvRunner` holds the per-env logic and
dispatches commands through a dict; `ProcessPool` runs it in worker processes and `SerialPool` runs the
very same code in-process (used by tests and for debugging).
"""

from __future__ import annotations

import collections
import math
import multiprocessing as mp
import multiprocessing.connection as mpc
import os
import pickle
import select
import signal
import struct
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import IntEnum
from typing import Any, Protocol

import numpy as np

from tpsrl.engine import shm
from tpsrl.engine.envs import EnvFactory, conform


class Command(IntEnum):
    """Main -> worker."""

    RESET = 1  # payload: int64 seed; reset, write obs
    STEP = 2  # read action from shm, step, auto-reset at episode end, write results
    CLOSE = 3  # close the envs and exit
    COLLECT = 4  # acting workers (`acting.py`): step and act until the rollout's step count is reached


class Reply(IntEnum):
    """Worker -> main."""

    RESET_DONE = 1  # obs written
    STEPPED = 2  # step results written
    EPISODE_END = 3  # step results written (obs is the reset obs); payload: pickled EpisodeInfo dict
    ERROR = 4  # payload: utf-8 traceback; the worker exits after sending it
    CLOSED = 5
    ROLLOUT_DONE = 6  # acting workers: rows written; payload: pickled summary (rows, episodes, calls)


STEPPED = bytes([Reply.STEPPED])
_STEP = bytes([Command.STEP])
_RECORD = np.dtype("<i4")  # a shared-pipe record: the env index of a plain STEPPED reply
_ENV = struct.Struct("<i")  # env index prefix of the messages on a worker's own pipe
_CHECK_EVERY_S = 0.25  # how often `ProcessPool.poll` looks for envs silent past their limit


@dataclass(frozen=True)
class EpisodeSummary:
    """One episode that ended, as its worker reports it (pickled after EPISODE_END); the logger averages
    these per update (`logger.episode_metrics`)."""

    reward_sum: float
    """The episode's undiscounted return."""
    length: int
    """Its steps."""
    stats: dict[str, float]
    """The env's `info["episode_stats"]` at the last step (success, failure causes, reward terms...)."""


class WorkerError(RuntimeError):
    """An environment worker raised, died or stopped answering."""

    def __init__(self, index: int | list[int], detail: str) -> None:
        self.index = index
        self.detail = detail
        super().__init__(f"environment worker {index} failed:\n{detail}")


class EnvRunner:
    """Worker-side logic for one environment; identical in process and serial modes."""

    def __init__(self, index: int, factory: EnvFactory, views: dict[str, np.ndarray]) -> None:
        self.index = index
        self.env = conform(factory())
        self.views = views
        self.keys = list(self.env.observation_space.spaces)
        space = self.env.action_space
        self.low, self.high = space.low.astype(np.float32), space.high.astype(np.float32)
        self._ep_return = 0.0
        self._ep_length = 0
        self.handlers: dict[Command, Callable[[bytes], bytes]] = {
            Command.RESET: self._reset,
            Command.STEP: self._step,
            Command.CLOSE: self._close,
        }

    def handle(self, message: bytes) -> bytes:
        """`Command` byte + payload -> `Reply` byte + payload."""
        return self.handlers[Command(message[0])](message[1:])

    def _write(self, prefix: str, obs: dict[str, Any]) -> None:
        for key in self.keys:
            self.views[f"{prefix}/{key}"][self.index] = obs[key]

    def _reset(self, payload: bytes) -> bytes:
        (seed,) = struct.unpack("<q", payload)
        obs, _ = self.env.reset(seed=seed if seed >= 0 else None)
        self._write("obs", obs)
        self._clear_episode()
        return bytes([Reply.RESET_DONE])

    def _clear_episode(self) -> None:
        self._ep_return, self._ep_length = 0.0, 0

    def _step(self, payload: bytes) -> bytes:
        i, v = self.index, self.views
        action = np.clip(v["action"][i], self.low, self.high)
        obs, reward, terminated, truncated, info = self.env.step(action)
        v["reward"][i] = reward
        v["terminated"][i] = terminated
        v["truncated"][i] = truncated
        self._ep_return += float(reward)
        self._ep_length += 1
        if not (terminated or truncated):
            self._write("obs", obs)
            return STEPPED
        self._write("final_obs", obs)
        stats = {k: float(x) for k, x in (info.get("episode_stats") or {}).items()}
        episode = EpisodeSummary(self._ep_return, self._ep_length, stats)
        obs, _ = self.env.reset()
        self._write("obs", obs)
        self._clear_episode()
        return bytes([Reply.EPISODE_END]) + pickle.dumps(episode)

    def _close(self, payload: bytes) -> bytes:
        self.env.close()
        return bytes([Reply.CLOSED])


def _error_reply() -> bytes:
    return bytes([Reply.ERROR]) + traceback.format_exc().encode()


def serve_one(runner: EnvRunner, message: bytes) -> bytes:
    """Handles one command; an exception becomes an ERROR reply carrying the traceback."""
    try:
        return runner.handle(message)
    except Exception:
        return _error_reply()


def decode(index: int, reply: bytes) -> tuple[Reply, Any]:
    """Splits a reply into its kind and payload; an ERROR reply raises `WorkerError`."""
    kind = Reply(reply[0])
    if kind is Reply.ERROR:
        raise WorkerError(index, reply[1:].decode(errors="replace"))
    return kind, pickle.loads(reply[1:]) if kind in (Reply.EPISODE_END, Reply.ROLLOUT_DONE) else None


def command(cmd: Command, seed: int | None = None) -> bytes:
    """A command for one env (`Command` byte + payload), as `EnvRunner.handle` takes it."""
    if cmd is Command.RESET:
        return bytes([cmd]) + struct.pack("<q", -1 if seed is None else seed)
    return bytes([cmd])


def worker_groups(num_envs: int, envs_per_worker: int) -> list[range]:
    """The envs of each worker process: consecutive blocks of `envs_per_worker` (the last may be short);
    0: one process per core this process may run on (`ceil(num_envs / cores)` envs each)."""
    k = envs_per_worker if envs_per_worker > 0 else -(-num_envs // len(os.sched_getaffinity(0)))
    return [range(s, min(num_envs, s + k)) for s in range(0, num_envs, k)]


class EnvPool(Protocol):
    """What the collector needs from a set of environment workers."""

    num_envs: int
    views: dict[str, np.ndarray]

    def send(self, index: int, message: bytes) -> None:
        """Sends one env a `command(...)`."""
        ...

    def step(self, envs: Sequence[int]) -> None:
        """Starts a step of each of `envs` (actions already in `views["action"]`)."""
        ...

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        """Replies `(env, Reply byte + payload)` that have arrived (blocks for at least one while any
        command is outstanding and `timeout` is None)."""
        ...

    def close(self) -> None: ...


class SerialPool:
    """All environments in this process; a command is served as soon as it is sent."""

    def __init__(self, factories: Sequence[EnvFactory], spec: shm.ShmSpec) -> None:
        self.num_envs = num_envs = len(factories)
        self.views = shm.views(shm.allocate(spec, num_envs), spec, num_envs)
        self.runners: list[EnvRunner] = []
        for i in range(num_envs):
            try:
                self.runners.append(EnvRunner(i, factories[i], self.views))
            except Exception as e:
                raise WorkerError(i, traceback.format_exc()) from e
        self._outbox: collections.deque[tuple[int, bytes]] = collections.deque()

    def send(self, index: int, message: bytes) -> None:
        self._outbox.append((index, serve_one(self.runners[index], message)))

    def step(self, envs: Sequence[int]) -> None:
        for e in envs:
            self.send(e, _STEP)

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        out = list(self._outbox)
        self._outbox.clear()
        return out

    def close(self) -> None:
        for runner in self.runners:
            try:
                runner.env.close()
            except Exception:
                pass


def _worker_loop(runners: dict[int, EnvRunner], first: int, conn: mpc.Connection, records: int) -> None:
    """Serves commands until CLOSE, an error, or the trainer going away."""
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):  # trainer went away
            return
        cmd = message[0]
        targets, body = (
            (message[1:2], message[:1] + message[2:]) if cmd == Command.RESET else (message[1:], message[:1])
        )
        for local in targets:
            env = first + local
            reply = serve_one(runners[env], body)
            try:
                if reply == STEPPED:
                    os.write(records, _ENV.pack(env))
                else:
                    conn.send_bytes(_ENV.pack(env) + reply)
            except (BrokenPipeError, OSError):
                return
            if reply[0] == Reply.ERROR:
                return
        if cmd == Command.CLOSE:
            return


def worker_main(
    envs: range,
    factories: Sequence[EnvFactory],
    conn: mpc.Connection,
    records: mpc.Connection,
    block: Any,
    spec: shm.ShmSpec,
    n: int,
    acting: Any = None,
    worker: int = 0,
    workers: int = 1,
) -> None:
    """Entry point of a worker process stepping `envs` (built from `factories`, one per env); with
    `acting` (an `acting.ActingShared`) it also chooses their actions (`engine.act_in_workers`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's to handle; it closes us
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the trainer's stop handler (inherited with fork)
    views = shm.views(block, spec, n)
    runners: dict[int, EnvRunner] = {}
    for env, factory in zip(envs, factories, strict=True):
        try:
            runners[env] = EnvRunner(env, factory, views)
        except Exception:
            conn.send_bytes(_ENV.pack(env) + _error_reply())
            return
    if acting is None:
        _worker_loop(runners, envs.start, conn, records.fileno())
        return
    try:
        acting.serve(runners, worker, workers, conn)
    except (EOFError, OSError):  # trainer went away
        return
    except Exception:
        try:
            conn.send_bytes(_ENV.pack(envs.start) + _error_reply())
        except (BrokenPipeError, OSError):
            pass


class ProcessPool:
    """Worker processes of `envs_per_worker` envs each; replies are awaited with a timeout and
    process-liveness checks so that a dead or stuck worker is reported, never waited on forever."""

    def __init__(
        self,
        factories: Sequence[EnvFactory],
        spec: shm.ShmSpec,
        start_method: str,
        timeout_s: float,
        start_timeout_s: float = 300.0,
        *,
        envs_per_worker: int = 1,
        acting: Any = None,
    ) -> None:
        self.num_envs = num_envs = len(factories)
        self.timeout_s, self.start_timeout_s = timeout_s, start_timeout_s
        self.groups = worker_groups(num_envs, envs_per_worker)
        self.worker_of = [w for w, g in enumerate(self.groups) for _ in g]
        self.answered: set[int] = set()  # envs that have replied once (their worker started up)
        self.outstanding: set[int] = set()
        # When each env's command in flight was sent: a silent env is reported even while others keep the
        # collector busy (ver never blocks on one env); checked every _CHECK_EVERY_S at most.
        self.sent_at = np.zeros(num_envs)
        self._next_check = 0.0
        ctx = mp.get_context(start_method)
        block = shm.allocate(spec, num_envs, ctx)
        self.views = shm.views(block, spec, num_envs)
        self.records, records_w = ctx.Pipe(duplex=False)
        os.set_blocking(self.records.fileno(), False)
        self.conns: list[mpc.Connection] = []
        self.procs: list[Any] = []
        for w, envs in enumerate(self.groups):
            parent, child = ctx.Pipe()
            args = (
                envs,
                [factories[e] for e in envs],
                child,
                records_w,
                block,
                spec,
                num_envs,
                acting,
                w,
                len(self.groups),
            )
            proc = ctx.Process(target=worker_main, args=args, daemon=True, name=f"env-worker-{w}")
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        records_w.close()
        self._pending = b""  # a partial record (never expected: 4-byte writes to a pipe are atomic)
        # One poll object, registered once; a dead worker's own pipe reads as EOF.
        self.poller = select.poll()
        self.poller.register(self.records.fileno(), select.POLLIN)
        self.by_fd = {conn.fileno(): w for w, conn in enumerate(self.conns)}
        for fd in self.by_fd:
            self.poller.register(fd, select.POLLIN)

    def _name(self, w: int) -> int | list[int]:
        envs = list(self.groups[w])
        return envs[0] if len(envs) == 1 else envs

    def _send(self, w: int, message: bytes) -> None:
        try:
            self.conns[w].send_bytes(message)
        except (BrokenPipeError, OSError):
            self._raise_dead(w)

    def send(self, index: int, message: bytes) -> None:
        w = self.worker_of[index]
        local = index - self.groups[w].start
        self._send(w, message[:1] + bytes([local]) + message[1:])
        self.outstanding.add(index)
        self.sent_at[index] = time.monotonic()

    def step(self, envs: Sequence[int]) -> None:
        by_worker: dict[int, bytearray] = {}
        for e in envs:
            w = self.worker_of[e]
            by_worker.setdefault(w, bytearray(_STEP)).append(e - self.groups[w].start)
        for w, message in by_worker.items():
            self._send(w, bytes(message))
        self.outstanding.update(envs)
        self.sent_at[list(envs)] = time.monotonic()

    def _raise_dead(self, w: int) -> None:
        conn = self.conns[w]
        try:
            while conn.poll():  # it may have said why before dying
                message = conn.recv_bytes()
                decode(_ENV.unpack_from(message)[0], message[_ENV.size :])
        except (EOFError, OSError):
            pass
        proc = self.procs[w]
        proc.join(timeout=1.0)
        raise WorkerError(
            self._name(w), f"process {proc.name} (pid {proc.pid}) died with exit code {proc.exitcode}"
        )

    def _limit(self, timeout: float | None) -> float:
        if timeout is not None:
            return timeout
        return (
            self.timeout_s if self.outstanding <= self.answered else max(self.timeout_s, self.start_timeout_s)
        )

    def _read_records(self) -> list[tuple[int, bytes]]:
        try:
            data = self._pending + os.read(self.records.fileno(), 1 << 16)
        except BlockingIOError:
            return []
        whole = len(data) - len(data) % _RECORD.itemsize
        self._pending = data[whole:]
        return [(int(e), STEPPED) for e in np.frombuffer(data[:whole], _RECORD)]

    def _read_own(self, w: int) -> list[tuple[int, bytes]]:
        conn, out = self.conns[w], []
        try:
            while conn.poll():
                message = conn.recv_bytes()
                env, reply = _ENV.unpack_from(message)[0], message[_ENV.size :]
                if reply[0] == Reply.ERROR:
                    decode(env, reply)  # raises, before the EOF that follows could hide the traceback
                out.append((env, reply))
        except (EOFError, OSError):
            self._raise_dead(w)
        return out

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        """Replies that have arrived. With `timeout` None, waits for at least one for up to
        `timeout_s` (`start_timeout_s` while a worker has not answered yet: imports, env construction) and
        then raises `WorkerError`; otherwise waits at most `timeout` seconds."""
        if not self.outstanding:
            return []
        limit = self._limit(timeout)
        deadline = time.monotonic() + limit
        while True:
            events = self.poller.poll(max(0, math.ceil((deadline - time.monotonic()) * 1000)))
            replies = self._take(events)
            self._check_overdue()
            if replies or timeout is not None:
                return replies
            if time.monotonic() >= deadline:
                raise WorkerError(
                    sorted(self.outstanding),
                    f"no reply within {limit:.1f} s (engine.step_timeout_s / start_timeout_s)",
                )

    def _check_overdue(self) -> None:
        """Raises `WorkerError` for an env whose command has been unanswered for longer than its limit
        (replies that already arrived were taken first, so a long learner update does not count)."""
        now = time.monotonic()
        if now < self._next_check or not self.outstanding:
            return
        self._next_check = now + _CHECK_EVERY_S
        limits = {
            e: self.timeout_s if e in self.answered else max(self.timeout_s, self.start_timeout_s)
            for e in self.outstanding
        }
        overdue = sorted(e for e, limit in limits.items() if now - self.sent_at[e] > limit)
        if overdue:
            procs = {self.procs[self.worker_of[e]] for e in overdue}
            states = ", ".join(
                f"{p.name} (pid {p.pid}) {'alive but silent' if p.is_alive() else 'exited'}"
                for p in sorted(procs, key=lambda p: p.name)
            )
            raise WorkerError(
                overdue,
                f"no reply within {limits[overdue[0]]:.1f} s (engine.step_timeout_s / "
                f"start_timeout_s): {states} (stopped or stuck, or starved of CPU by other work on "
                "the machine: then resume with run.resume=true and a larger engine.step_timeout_s)",
            )

    def _take(self, events: list[tuple[int, int]]) -> list[tuple[int, bytes]]:
        """Replies to outstanding commands: shared-pipe records first, then the own pipes that `events` name."""
        out = self._read_records()
        for fd, _ in events:
            if fd in self.by_fd:
                out += self._read_own(self.by_fd[fd])
        replies: list[tuple[int, bytes]] = []
        for env, message in out:
            if env not in self.outstanding:
                decode(env, message)  # unsolicited: only an ERROR can be, and it raises
                continue
            replies.append((env, message))
        self.outstanding.difference_update(e for e, _ in replies)
        self.answered.update(e for e, _ in replies)
        return replies

    def close(self) -> None:
        for w, conn in enumerate(self.conns):
            if self.procs[w].is_alive():
                try:
                    conn.send_bytes(bytes([Command.CLOSE, *range(len(self.groups[w]))]))
                except (BrokenPipeError, OSError):
                    pass
        deadline = time.monotonic() + 3.0
        for proc in self.procs:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
        for proc in self.procs:
            if proc.is_alive():
                try:  # a stopped worker (SIGSTOP) only acts on SIGTERM once continued
                    os.kill(proc.pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
                proc.terminate()
                proc.join(timeout=1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1.0)
        for conn in self.conns:
            conn.close()
        self.records.close()
