"""Several envs per worker process, time-bounded dynamic batching and zero-sized (MLP) policy states."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from tests.engine.test_collector import LaggyPool, make
from tests.engine.toy_envs import counter, counter7, crash
from tpsrl.engine import shm
from tpsrl.engine.collector import Collector, EngineConfig, build_collector
from tpsrl.engine.config import ConfigError, TrainConfig, validate
from tpsrl.engine.envs import probe_spaces
from tpsrl.engine.policy import ActorCritic, PolicyConfig
from tpsrl.engine.workers import Command, ProcessPool, Reply, WorkerError, command, decode, worker_groups


def test_worker_groups_are_consecutive_blocks() -> None:
    assert worker_groups(5, 2) == [range(0, 2), range(2, 4), range(4, 5)]
    assert worker_groups(3, 1) == [range(0, 1), range(1, 2), range(2, 3)]


def test_one_message_steps_several_envs_of_a_worker() -> None:
    pool = ProcessPool(
        [counter] * 3, shm.step_spec(*probe_spaces(counter)), "forkserver", 20.0, envs_per_worker=2
    )
    try:
        assert len(pool.procs) == 2
        for i in range(3):
            pool.send(i, command(Command.RESET, seed=i))
        got: list = []
        while len(got) < 3:
            got += pool.poll()
        assert sorted(i for i, _ in got) == [0, 1, 2]
        for step in range(3):
            pool.views["action"][:] = 0.5
            pool.step([0, 1, 2])
            got = []
            while len(got) < 3:
                got += pool.poll()
            kinds = {i: decode(i, r) for i, r in got}
            assert sorted(kinds) == [0, 1, 2]
            expected = Reply.EPISODE_END if step == 2 else Reply.STEPPED  # horizon 3
            assert {k for k, _ in kinds.values()} == {expected}
        assert pool.views["final_obs/obs"][:, 0].tolist() == [3.0, 3.0, 3.0]
        assert kinds[2][1].reward_sum == 6.0
    finally:
        pool.close()
    assert not any(p.is_alive() for p in pool.procs)


def test_raising_env_sharing_a_worker_is_reported_by_its_own_index() -> None:
    pool = ProcessPool(
        [counter, crash], shm.step_spec(*probe_spaces(counter)), "forkserver", 20.0, envs_per_worker=2
    )
    try:
        for i in range(2):
            pool.send(i, command(Command.RESET, seed=i))
        with pytest.raises(WorkerError) as err:
            for _ in range(20):
                for i, r in pool.poll():
                    decode(i, r)
                pool.step([0, 1])
        assert err.value.index == 1 and "boom from CrashEnv" in str(err.value)
    finally:
        pool.close()


def _process_collector(mode: str, envs_per_worker: int, **engine: object) -> Collector:
    obs_space, act = probe_spaces(counter7)
    policy = ActorCritic(obs_space, 1, PolicyConfig(hidden_size=8, mlp_hidden=8))
    cfg = EngineConfig(mode=mode, num_envs=4, rollout_steps=8, envs_per_worker=envs_per_worker, **engine)  # type: ignore[arg-type]
    return build_collector(
        cfg, [counter7] * 4, policy, obs_space, act, device=torch.device("cpu"), seed=0, gamma=0.9, lam=0.8
    )


@pytest.mark.parametrize("mode", ["ver", "sync"])
def test_collector_over_shared_workers_keeps_step_reward_alignment(mode: str) -> None:
    c = _process_collector(mode, envs_per_worker=2, batch_wait_ms=2.0)
    try:
        for _ in range(3):
            r = c.collect()
            b = r.buffer
            assert len(r.slots) == 32
            assert torch.equal(b.reward[r.slots], b.obs["obs"][r.slots, 0] + 1)
            if mode == "sync":
                assert torch.bincount(b.env[r.slots], minlength=4).tolist() == [8, 8, 8, 8]
    finally:
        c.close()


def test_batch_wait_gives_fewer_larger_inference_calls() -> None:
    calls = {}
    for wait in (0.0, 50.0):
        c = make("ver", lag={0: 3}, n=3, t=8, batch_wait_ms=wait)
        for _ in range(3):
            r = c.collect()
            assert len(r.slots) == 24
        calls[wait] = c.stats.inference_calls
    assert calls[50.0] < calls[0.0]


def test_mlp_policy_with_empty_state_collects_and_reproduces_log_probs() -> None:
    obs_space, act = probe_spaces(counter7)
    policy = ActorCritic(obs_space, 1, PolicyConfig(kind="mlp", mlp_hidden=8))
    assert policy.state_shape() == (0,)
    from tpsrl.engine.workers import SerialPool

    pool = LaggyPool(SerialPool([counter7] * 3, shm.step_spec(obs_space, act)), {0: 2})
    cfg = EngineConfig(mode="ver", num_envs=3, rollout_steps=8, serial=True)
    c = Collector(cfg, pool, policy, obs_space, act, device=torch.device("cpu"), seed=0, gamma=0.9, lam=0.8)
    for _ in range(2):
        r = c.collect()
        assert c.buffer.state.shape == (c.buffer.capacity, 0) and c.state.shape == (3, 0)
        assert len(r.slots) == 24 and np.isfinite(r.advantages[r.slots].numpy()).all()


def test_new_engine_fields_are_validated() -> None:
    for field, value in (("envs_per_worker", -1), ("batch_wait_ms", -1.0)):
        cfg = TrainConfig()
        setattr(cfg.engine, field, value)
        with pytest.raises(ConfigError, match=f"engine.{field}"):
            validate(cfg)
