"""Collection in the three modes, in-flight steps, truncation bootstrap, stored recurrent states."""

from __future__ import annotations

import collections
from typing import Any

import numpy as np
import torch

from tests.engine.toy_envs import counter7 as counter_factory
from tpsrl.engine import shm
from tpsrl.engine.collector import Collector, EngineConfig
from tpsrl.engine.envs import probe_spaces
from tpsrl.engine.minibatch import minibatches, pack
from tpsrl.engine.policy import ActorCritic, PolicyConfig
from tpsrl.engine.workers import SerialPool


class LaggyPool:
    """Wraps a SerialPool and holds the replies of some environments for a number of polls, to mimic
    slow environments deterministically (so steps are in flight when a rollout ends)."""

    def __init__(self, inner: SerialPool, lag: dict[int, int]) -> None:
        self.inner, self.lag = inner, lag
        self.num_envs, self.views = inner.num_envs, inner.views
        self.held: collections.deque[list[Any]] = collections.deque()

    def _hold(self) -> None:
        for env, reply in self.inner.poll():
            self.held.append([env, reply, self.lag.get(env, 0)])

    def send(self, index: int, message: bytes) -> None:
        self.inner.send(index, message)
        self._hold()

    def step(self, envs: list[int]) -> None:
        self.inner.step(envs)
        self._hold()

    def poll(self, timeout: float | None = None) -> list[tuple[int, bytes]]:
        while True:
            out = [(e, r) for e, r, wait in self.held if wait <= 0]
            self.held = collections.deque([e, r, wait - 1] for e, r, wait in self.held if wait > 0)
            if out or timeout is not None or not self.held:
                return out

    def close(self) -> None:
        self.inner.close()


def make(mode: str, lag: dict[int, int] | None = None, n: int = 3, t: int = 8, **engine: Any) -> Collector:
    obs_space, act = probe_spaces(counter_factory)
    policy = ActorCritic(obs_space, 1, PolicyConfig(hidden_size=8, mlp_hidden=8))
    pool = SerialPool([counter_factory] * n, shm.step_spec(obs_space, act))
    cfg = EngineConfig(mode=mode, num_envs=n, rollout_steps=t, serial=True, **engine)
    return Collector(
        cfg,
        LaggyPool(pool, lag or {}),
        policy,
        obs_space,
        act,
        device=torch.device("cpu"),
        seed=0,
        gamma=0.9,
        lam=0.8,
    )


def completed_by_env(c: Collector, slots: torch.Tensor) -> list[int]:
    return torch.bincount(c.buffer.env[slots], minlength=c.cfg.num_envs).tolist()


def test_sync_and_nover_take_exactly_t_steps_per_env() -> None:
    for mode in ("sync", "nover"):
        c = make(mode, lag={0: 3})
        for _ in range(3):
            r = c.collect()
            assert completed_by_env(c, r.slots) == [8, 8, 8]
            assert c.stats.carried_out == 0
            assert bool((r.weights[r.slots] == 1.0).all())


def test_ver_lets_fast_envs_contribute_more_and_weights_them_down() -> None:
    c = make("ver", lag={0: 4})
    r = c.collect()
    counts = completed_by_env(c, r.slots)
    assert sum(counts) == 24 and counts[0] < 8 < max(counts)
    fast = int(torch.tensor(counts).argmax())
    w = r.weights[r.slots][c.buffer.env[r.slots] == fast]
    assert torch.allclose(w, torch.full_like(w, min(1.0, 9 / (counts[fast] + 1))))


def test_in_flight_step_is_learned_from_in_next_rollout_with_its_reward() -> None:
    c = make("ver", lag={0: 4})
    carried_checked = 0
    for _ in range(6):
        r = c.collect()
        b = r.buffer
        # every completed step: reward is the env's step count after the action taken at obs t -> t + 1
        assert torch.equal(b.reward[r.slots], b.obs["obs"][r.slots, 0] + 1)
        pending = np.flatnonzero(c.pending >= 0).tolist()
        before = {
            e: (
                b.obs["obs"][int(c.pending[e]), 0].item(),
                b.action[int(c.pending[e])].clone(),
                b.log_prob[int(c.pending[e])].item(),
            )
            for e in pending
        }
        assert c.stats.carried_out == len(pending)
        nxt = c.collect()
        for e, (t, action, log_prob) in before.items():
            slot = int(torch.nonzero(nxt.buffer.env[: nxt.buffer.size] == e).squeeze(1)[0])
            assert nxt.buffer.complete[slot]
            assert nxt.buffer.obs["obs"][slot, 0].item() == t
            assert torch.equal(nxt.buffer.action[slot], action)
            assert nxt.buffer.log_prob[slot].item() == log_prob
            assert nxt.buffer.reward[slot].item() == t + 1  # its own result, not a later one
            assert slot in nxt.slots.tolist()  # learned from: in exactly one minibatch of the epoch
            mbs = minibatches(nxt.sequences, 2, torch.Generator().manual_seed(0))
            assert sum(slot in m.slots.tolist() for m in mbs) == 1
            carried_checked += 1
        assert c.stats.carried_in == len(before)
    assert carried_checked > 0


def test_truncation_bootstraps_from_final_observation_value() -> None:
    c = make("sync", n=2, t=8)  # horizon 7: every env truncates once per rollout
    r = c.collect()
    b = r.buffer
    trunc = torch.nonzero(b.truncated[: b.size]).squeeze(1)
    assert len(trunc) == 2
    for slot in trunc.tolist():
        assert b.truncation_value[slot] != 0.0
        # recompute: value of the final obs (t = 7) after the step, from the stored step's LSTM output
        obs = {"obs": torch.tensor([[7.0]])}
        _, _, _, state_after = c.policy.act(
            {"obs": b.obs["obs"][slot : slot + 1]},
            b.prev_action[slot : slot + 1],
            b.state[slot : slot + 1],
            deterministic=True,
        )
        prev = b.action[slot : slot + 1].clamp(-1, 1)
        assert torch.allclose(c.policy.value(obs, prev, state_after), b.truncation_value[slot : slot + 1])
    # the step after a truncation starts an episode with a zero recurrent state and previous action
    starts = torch.nonzero(b.episode_start[: b.size]).squeeze(1)
    assert bool((b.state[starts] == 0).all()) and bool((b.prev_action[starts] == 0).all())


def test_stored_states_reproduce_behaviour_log_probs() -> None:
    """The LSTM state at each minibatch sequence start is the stored one: re-evaluating the rollout with
    unchanged parameters gives back the log-probs and values recorded while acting."""
    c = make("ver", lag={0: 2, 1: 1})
    for _ in range(2):
        r = c.collect()
        b = r.buffer
        for mb in minibatches(r.sequences, 4, torch.Generator().manual_seed(1)) + [pack(r.sequences)]:
            s = mb.slots
            lp, v = c.policy.evaluate(
                {"obs": b.obs["obs"][s]}, b.prev_action[s], b.action[s], mb.mask, b.state[mb.starts]
            )
            assert torch.allclose(lp, b.log_prob[s], atol=1e-5)
            assert torch.allclose(v, b.value[s], atol=1e-5)


def test_traced_acting_collects_the_same_steps_as_eager() -> None:
    """engine.trace_acting changes only the speed: two rollouts (the second acting through the trace,
    built once the observation statistics exist) are the same step for step."""
    rows = {}
    for trace in (False, True):
        torch.manual_seed(0)
        c = make("ver", lag={0: 2}, trace_acting=trace)
        first = c.collect()
        assert c._traced is None  # no statistics yet
        c.policy.update_obs_stats({k: x[first.slots] for k, x in c.buffer.obs.items()})
        second = c.collect()
        assert (c._traced is not None) == trace
        rows[trace] = [
            getattr(c.buffer, k)[second.slots].clone() for k in ("action", "log_prob", "value", "state")
        ]
    assert all(torch.equal(a, b) for a, b in zip(rows[False], rows[True], strict=True))
