"""Worker processes: the protocol over shared memory, and faults reported with index, never a hang."""

from __future__ import annotations

import os

import gymnasium as gym
import pytest

from tests.engine.toy_envs import bad_init, counter, crash, die, hang
from tpsrl.engine import shm
from tpsrl.engine.envs import EnvContractError, conform, probe_spaces
from tpsrl.engine.workers import (
    Command,
    EpisodeSummary,
    ProcessPool,
    Reply,
    SerialPool,
    WorkerError,
    command,
    decode,
)


def spec() -> shm.ShmSpec:
    return shm.step_spec(*probe_spaces(counter))


def run_until_error(pool: ProcessPool | SerialPool, steps: int = 10) -> None:
    for i in range(pool.num_envs):
        pool.send(i, command(Command.RESET, seed=i))
    got = 0
    while got < pool.num_envs:
        replies = pool.poll()
        for i, r in replies:
            decode(i, r)
        got += len(replies)
    for _ in range(steps):
        for i in range(pool.num_envs):
            pool.send(i, command(Command.STEP))
        got = 0
        while got < pool.num_envs:
            replies = pool.poll()
            for i, r in replies:
                decode(i, r)
            got += len(replies)


@pytest.mark.parametrize("serial", [True, False])
def test_protocol_steps_through_shared_memory(serial: bool) -> None:
    factories = [counter, counter]
    pool = SerialPool(factories, spec()) if serial else ProcessPool(factories, spec(), "forkserver", 20.0)
    try:
        for i in range(2):
            pool.send(i, command(Command.RESET, seed=i))
        replies = []
        while len(replies) < 2:
            replies += pool.poll()
        assert sorted(decode(i, r)[0] for i, r in replies) == [Reply.RESET_DONE] * 2
        kinds = []
        for _ in range(3):
            pool.views["action"][:] = 0.5
            for i in range(2):
                pool.send(i, command(Command.STEP))
            got: list = []
            while len(got) < 2:
                got += pool.poll()
            kinds.append({decode(i, r)[0] for i, r in got})
        assert kinds == [{Reply.STEPPED}, {Reply.STEPPED}, {Reply.EPISODE_END}]  # horizon 3
        assert pool.views["truncated"].tolist() == [True, True]
        assert pool.views["final_obs/obs"][:, 0].tolist() == [3.0, 3.0]
        assert pool.views["obs/obs"][:, 0].tolist() == [0.0, 0.0]  # auto-reset
        episode = decode(0, got[0][1])[1]
        assert episode == EpisodeSummary(reward_sum=6.0, length=3, stats={"steps": 3.0})
    finally:
        pool.close()


@pytest.mark.timeout(60)  # a hang, not a slow machine, fails these: each should end within seconds
@pytest.mark.parametrize("serial", [True, False])
def test_raising_env_is_reported_with_index_and_traceback(serial: bool) -> None:
    factories = [counter, crash, counter]
    pool = SerialPool(factories, spec()) if serial else ProcessPool(factories, spec(), "forkserver", 20.0)
    try:
        with pytest.raises(WorkerError) as err:
            run_until_error(pool)
        assert err.value.index == 1
        assert "boom from CrashEnv" in str(err.value) and "Traceback" in str(err.value)
    finally:
        pool.close()


@pytest.mark.timeout(60)
def test_dead_worker_is_reported_not_waited_on() -> None:
    pool = ProcessPool([counter, die], spec(), "forkserver", 20.0)
    try:
        with pytest.raises(WorkerError) as err:
            run_until_error(pool)
        assert err.value.index == 1 and "exit code 3" in str(err.value)
    finally:
        pool.close()


@pytest.mark.timeout(60)
def test_stuck_worker_times_out_and_close_does_not_hang() -> None:
    pool = ProcessPool([counter, hang], spec(), "forkserver", 1.0, start_timeout_s=60.0)
    try:
        with pytest.raises(WorkerError) as err:
            run_until_error(pool)
        assert err.value.index == [1] and "engine.step_timeout_s" in str(err.value)
    finally:
        pool.close()
    assert not any(p.is_alive() for p in pool.procs)


def test_env_construction_failure_is_reported() -> None:
    with pytest.raises(WorkerError, match="cannot build this env"):
        SerialPool([counter, bad_init], spec())
    pool = ProcessPool([counter, bad_init], spec(), "forkserver", 20.0)
    try:
        with pytest.raises(WorkerError) as err:
            run_until_error(pool)
        assert err.value.index == 1 and "cannot build this env" in str(err.value)
    finally:
        pool.close()


def test_contract_wraps_box_and_rejects_discrete() -> None:
    env = conform(counter())
    assert isinstance(env.observation_space, gym.spaces.Dict) and "obs" in env.observation_space.spaces
    with pytest.raises(EnvContractError, match="action_space"):
        conform(gym.make("CartPole-v1"))


@pytest.mark.timeout(60)
def test_training_run_stops_cleanly_when_a_worker_crashes(tmp_path) -> None:
    from tests.engine.conftest import tiny_config
    from tpsrl.engine import checkpoint as ckpt
    from tpsrl.engine.train import train

    cfg = tiny_config(tmp_path, serial=False, total_steps=10_000)
    cfg.engine.num_envs = 2
    with pytest.raises(WorkerError) as err:
        train(cfg, [counter, crash])
    assert err.value.index == 1 and "boom from CrashEnv" in str(err.value)
    assert (tmp_path / "run" / "checkpoints" / ckpt.LATEST).exists()


def test_envs_per_worker_zero_means_one_process_per_core(monkeypatch: pytest.MonkeyPatch) -> None:
    from tpsrl.engine.workers import worker_groups

    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2})
    groups = worker_groups(16, 0)
    assert [len(g) for g in groups] == [6, 6, 4] and [e for g in groups for e in g] == list(range(16))
    assert [len(g) for g in worker_groups(16, 5)] == [5, 5, 5, 1]


def test_negative_envs_per_worker_names_the_field(tmp_path) -> None:
    from tests.engine.conftest import tiny_config
    from tpsrl.engine.config import ConfigError, validate

    cfg = tiny_config(tmp_path)
    cfg.engine.envs_per_worker = -1
    with pytest.raises(ConfigError, match="engine.envs_per_worker=-1"):
        validate(cfg)
