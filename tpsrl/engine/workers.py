"""Environment workers: one process per environment speaking an explicit message protocol.

Main -> worker messages are a `Command` byte (RESET carries an 8-byte seed); worker -> main replies are a
`Reply` byte, plus a pickled payload only at episode end (statistics) or on error (traceback). Step
inputs and outputs travel through shared memory (`shm.py`). `EnvRunner` holds the worker-side logic
and dispatches commands through a dict; `ProcessPool` runs it in one process per env and `SerialPool`
runs the very same code in-process (used by tests and for debugging).
"""

from __future__ import annotations

import collections
import multiprocessing as mp
import multiprocessing.connection as mpc
import pickle
import select
import signal
import struct
import time
import traceback
from collections.abc import Callable, Sequence
from enum import IntEnum
from typing import Any, Protocol

import numpy as np

from tpsrl.engine import shm
from tpsrl.engine.envs import EnvFactory, conform


class Command(IntEnum):
    """Main -> worker."""

    RESET = 1  # payload: int64 seed; reset, write obs
    STEP = 2  # read action from shm, step, auto-reset at episode end, write results
    CLOSE = 3  # close the env and exit


class Reply(IntEnum):
    """Worker -> main."""

    RESET_DONE = 1  # obs written
    STEPPED = 2  # step results written
    EPISODE_END = 3  # step results written (obs is the reset obs); payload: pickled EpisodeInfo dict
    ERROR = 4  # payload: utf-8 traceback; the worker exits after sending it
    CLOSED = 5


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
        self._ep_terms: dict[str, float] = collections.defaultdict(float)
        self.handlers: dict[Command, Callable[[bytes], bytes]] = {
            Command.RESET: self._reset,
            Command.STEP: self._step,
            Command.CLOSE: self._close,
        }

    def handle(self, message: bytes) -> bytes:
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
        self._ep_terms.clear()

    def _step(self, payload: bytes) -> bytes:
        i, v = self.index, self.views
        action = np.clip(v["action"][i], self.low, self.high)
        obs, reward, terminated, truncated, info = self.env.step(action)
        v["reward"][i] = reward
        v["terminated"][i] = terminated
        v["truncated"][i] = truncated
        self._ep_return += float(reward)
        self._ep_length += 1
        for name, value in (info.get("reward_terms") or {}).items():
            self._ep_terms[name] += float(value)
        if not (terminated or truncated):
            self._write("obs", obs)
            return bytes([Reply.STEPPED])
        self._write("final_obs", obs)
        episode = {
            "return": self._ep_return,
            "length": self._ep_length,
            "stats": {k: float(x) for k, x in (info.get("episode_stats") or {}).items()},
            "reward_terms": dict(self._ep_terms),
        }
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


def worker_main(
    index: int, factory: EnvFactory, conn: mpc.Connection, block: Any, spec: shm.ShmSpec, n: int
) -> None:
    """Entry point of a worker process."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the trainer's to handle; it closes us
    try:
        runner = EnvRunner(index, factory, shm.views(block, spec, n))
    except Exception:
        conn.send_bytes(_error_reply())
        return
    while True:
        try:
            message = conn.recv_bytes()
        except (EOFError, OSError):  # trainer went away
            break
        reply = serve_one(runner, message)
        try:
            conn.send_bytes(reply)
        except (BrokenPipeError, OSError):
            break
        if reply[0] in (Reply.ERROR, Reply.CLOSED):
            break


def decode(index: int, reply: bytes) -> tuple[Reply, Any]:
    """Splits a reply into its kind and payload; an ERROR reply raises `WorkerError`."""
    kind = Reply(reply[0])
    if kind is Reply.ERROR:
        raise WorkerError(index, reply[1:].decode(errors="replace"))
    return kind, pickle.loads(reply[1:]) if kind is Reply.EPISODE_END else None


def command(cmd: Command, seed: int | None = None) -> bytes:
    if cmd is Command.RESET:
        return bytes([cmd]) + struct.pack("<q", -1 if seed is None else seed)
    return bytes([cmd])


class EnvPool(Protocol):
    """What the collector needs from a set of environment workers."""

    num_envs: int
    views: dict[str, np.ndarray]

    def send(self, index: int, message: bytes) -> None: ...

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        """Replies that have arrived (blocks for at least one while any command is outstanding)."""
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


class ProcessPool:
    """One process per environment; replies are awaited with a timeout and process-liveness checks so
    that a dead or stuck worker is reported, never waited on forever."""

    def __init__(
        self,
        factories: Sequence[EnvFactory],
        spec: shm.ShmSpec,
        start_method: str,
        timeout_s: float,
        start_timeout_s: float = 300.0,
    ) -> None:
        self.num_envs = num_envs = len(factories)
        self.timeout_s, self.start_timeout_s = timeout_s, start_timeout_s
        self.answered: set[int] = set()  # workers that have replied once (started up)
        ctx = mp.get_context(start_method)
        block = shm.allocate(spec, num_envs, ctx)
        self.views = shm.views(block, spec, num_envs)
        self.conns: list[mpc.Connection] = []
        self.procs: list[Any] = []
        self.outstanding: set[int] = set()
        for i in range(num_envs):
            parent, child = ctx.Pipe()
            proc = ctx.Process(
                target=worker_main,
                args=(i, factories[i], child, block, spec, num_envs),
                daemon=True,
                name=f"env-{i}",
            )
            proc.start()
            child.close()
            self.conns.append(parent)
            self.procs.append(proc)
        # One poll object for the pipes, registered once; a dead worker's pipe reads as EOF.
        self.poller = select.poll()
        self.by_fd = {conn.fileno(): i for i, conn in enumerate(self.conns)}
        for fd in self.by_fd:
            self.poller.register(fd, select.POLLIN)

    def send(self, index: int, message: bytes) -> None:
        try:
            self.conns[index].send_bytes(message)
        except (BrokenPipeError, OSError):
            self._raise_dead(index)
        self.outstanding.add(index)

    def _raise_dead(self, index: int) -> None:
        conn = self.conns[index]
        try:
            if conn.poll():  # it may have said why before dying
                decode(index, conn.recv_bytes())
        except (EOFError, OSError):
            pass
        proc = self.procs[index]
        proc.join(timeout=1.0)
        raise WorkerError(index, f"process {proc.name} (pid {proc.pid}) died with exit code {proc.exitcode}")

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        """Replies that have arrived. With `timeout` None, waits for at least one for up to
        `timeout_s` (`start_timeout_s` while a worker has not answered yet: imports, env construction) and
        then raises `WorkerError`; otherwise waits at most `timeout` seconds."""
        if not self.outstanding:
            return []
        limit = (
            self.timeout_s if self.outstanding <= self.answered else max(self.timeout_s, self.start_timeout_s)
        )
        limit = limit if timeout is None else timeout
        events = self.poller.poll(None if limit is None else max(0, int(limit * 1000)))
        if not events:
            if timeout is not None:
                return []
            raise WorkerError(
                sorted(self.outstanding),
                f"no reply within {limit:.1f} s (engine.step_timeout_s / start_timeout_s)",
            )
        out: list[tuple[int, bytes]] = []
        for fd, _ in events:
            i = self.by_fd[fd]
            conn = self.conns[i]
            try:
                message = conn.recv_bytes()  # readable: a message, or EOF if the worker died
            except (EOFError, OSError):
                self._raise_dead(i)
            if i not in self.outstanding:
                decode(i, message)  # unsolicited: only an ERROR can be, and it raises
                continue
            self.outstanding.discard(i)
            self.answered.add(i)
            out.append((i, message))
        return out

    def close(self) -> None:
        for i, conn in enumerate(self.conns):
            if self.procs[i].is_alive():
                try:
                    conn.send_bytes(command(Command.CLOSE))
                except (BrokenPipeError, OSError):
                    pass
        deadline = time.monotonic() + 3.0
        for proc in self.procs:
            proc.join(timeout=max(0.0, deadline - time.monotonic()))
        for proc in self.procs:
            if proc.is_alive():
                proc.terminate()
                proc.join(timeout=1.0)
            if proc.is_alive():
                proc.kill()
                proc.join(timeout=1.0)
        for conn in self.conns:
            conn.close()
