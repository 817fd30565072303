"""Properties of VER's recurrent minibatch generator."""

from __future__ import annotations

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from tpsrl.engine.minibatch import chunk, flat_minibatches, minibatches, pack, split_sequences


def test_split_sequences_at_env_and_episode_boundaries() -> None:
    # interleaved envs 0/1; env 0 starts a new episode at slot 4
    slots = torch.arange(7)
    env = torch.tensor([0, 1, 0, 1, 0, 1, 0])
    start = torch.tensor([False, False, False, False, True, False, False])
    seqs = split_sequences(slots, env, start)
    assert [s.tolist() for s in seqs] == [[0, 2], [4, 6], [1, 3, 5]]


def test_pack_is_longest_first_time_major() -> None:
    p = pack([torch.tensor([5]), torch.tensor([1, 2, 3]), torch.tensor([7, 8])])
    assert p.lengths.tolist() == [3, 2, 1]
    assert p.index.tolist() == [[1, 7, 5], [2, 8, -1], [3, -1, -1]]
    assert p.slots.tolist() == [1, 7, 5, 2, 8, 3]
    assert p.starts.tolist() == [1, 7, 5]


@settings(max_examples=60, deadline=None)
@given(
    envs=st.integers(1, 5),
    steps=st.integers(1, 40),
    m=st.sampled_from([1, 2, 4]),
    seed=st.integers(0, 10_000),
    max_len=st.sampled_from([0, 1, 3, 16]),
    data=st.data(),
)
def test_minibatch_properties(
    envs: int, steps: int, m: int, seed: int, max_len: int, data: st.DataObject
) -> None:
    total = envs * steps * m  # divisible by m
    env = torch.tensor(data.draw(st.lists(st.integers(0, envs - 1), min_size=total, max_size=total)))
    start = torch.tensor(data.draw(st.lists(st.booleans(), min_size=total, max_size=total)))
    slots = torch.arange(total)
    seqs = split_sequences(slots, env, start)
    batches = minibatches(seqs, m, torch.Generator().manual_seed(seed), max_len)
    # every collected step exactly once per epoch, minibatches of equal step count
    seen = torch.cat([b.slots for b in batches])
    assert sorted(seen.tolist()) == list(range(total))
    assert {len(b.slots) for b in batches} == {total // m}
    for b in batches:
        for k in range(b.index.shape[1]):
            seq = b.index[: b.lengths[k], k]
            # one environment, chronological, no episode start after the first step
            assert len(set(env[seq].tolist())) == 1
            assert bool((seq[1:] > seq[:-1]).all())
            assert not bool(start[seq[1:]].any())
            # consecutive steps of that env (no step of the env skipped inside a sequence)
            own = torch.nonzero(env == env[seq[0]]).squeeze(1)
            pos = torch.searchsorted(own, seq.contiguous())
            assert bool((pos[1:] - pos[:-1] == 1).all())
        assert bool((b.lengths[:-1] >= b.lengths[1:]).all())
        assert max_len == 0 or int(b.lengths.max()) <= max_len
        assert torch.equal(b.starts, b.index[0])


def test_chunk_cuts_long_sequences_only() -> None:
    seqs = [torch.arange(7), torch.tensor([10, 11])]
    assert [q.tolist() for q in chunk(seqs, 3)] == [[0, 1, 2], [3, 4, 5], [6], [10, 11]]
    assert chunk(seqs, 0) is seqs


def test_flat_minibatches_partition_the_steps() -> None:
    slots = torch.arange(10, 34)
    batches = flat_minibatches(slots, 4, torch.Generator().manual_seed(0))
    assert len(batches) == 4 and all(b.index.shape == (1, 6) for b in batches)
    assert torch.equal(torch.sort(torch.cat([b.slots for b in batches])).values, slots)
    assert all(torch.equal(b.lengths, torch.ones(6, dtype=torch.long)) for b in batches)
    with pytest.raises(ValueError, match="cannot be cut into 5"):
        flat_minibatches(slots, 5, torch.Generator())
