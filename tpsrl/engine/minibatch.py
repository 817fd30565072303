"""VER's recurrent minibatches: split steps into sequences at episode (and rollout) boundaries, shuffle
the sequences, cut them into minibatches of equal step count, and lay each minibatch out for a packed
LSTM. Pure functions over index tensors; the data stay in the rollout buffer."""

from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor


@dataclass(frozen=True)
class Packed:
    """A set of sequences in packed layout.

    index: `[L, K]` buffer slot of step l of sequence k, -1 past a sequence's end; columns sorted by
        length, longest first (so that at every time step the active sequences are a prefix).
    lengths: `[K]` sequence lengths, descending.
    """

    index: Tensor
    lengths: Tensor

    @property
    def mask(self) -> Tensor:
        """`[L, K]` True where a step exists."""
        return self.index >= 0

    @property
    def slots(self) -> Tensor:
        """`[S]` slots in the row-major (time-major) order of `mask`, the order the policy expects."""
        return self.index[self.mask]

    @property
    def starts(self) -> Tensor:
        """`[K]` slot of each sequence's first step."""
        return self.index[0]


def split_sequences(slots: Tensor, env: Tensor, episode_start: Tensor) -> list[Tensor]:
    """Splits steps into sequences: consecutive steps of one environment within one episode.

    Args:
        slots: `[S]` buffer slots, chronological within each environment.
        env: `[S]` environment of each step.
        episode_start: `[S]` True where a step is the first of an episode.

    Returns:
        K sequences, each a `[n_k]` tensor of slots in time order; they partition `slots`.
    """
    if slots.numel() == 0:
        return []
    order = torch.sort(env, stable=True).indices  # group by env, keep time order within an env
    s, e, start = slots[order], env[order], episode_start[order]
    new = torch.ones_like(start)
    new[1:] = (e[1:] != e[:-1]) | start[1:]
    bounds = torch.nonzero(new).squeeze(1).tolist() + [len(s)]
    return [s[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def pack(sequences: list[Tensor]) -> Packed:
    """Lays sequences out as `[L, K]`, longest first."""
    lengths = torch.tensor([len(q) for q in sequences], dtype=torch.long)
    lengths, order = torch.sort(lengths, descending=True, stable=True)
    index = torch.full((int(lengths[0]) if len(lengths) else 0, len(sequences)), -1, dtype=torch.long)
    for k, i in enumerate(order.tolist()):
        index[: len(sequences[i]), k] = sequences[i]
    return Packed(index, lengths)


def chunk(sequences: list[Tensor], max_len: int) -> list[Tensor]:
    """Cuts every sequence longer than `max_len` into pieces of at most `max_len` steps (0: no cut).

    Each piece starts from the recurrent state stored with its first step, so this bounds the number of
    sequential LSTM steps in learning (truncated backpropagation through time) without changing GAE,
    which is computed on the whole sequences beforehand.
    """
    if max_len <= 0:
        return sequences
    return [q[i : i + max_len] for q in sequences for i in range(0, len(q), max_len)]


def minibatches(
    sequences: list[Tensor], num_minibatches: int, generator: torch.Generator, max_len: int = 0
) -> list[Packed]:
    """Shuffles sequences and cuts them into `num_minibatches` minibatches of equal step count.

    The shuffled sequences are concatenated and cut every S / M steps; a sequence that straddles a cut
    continues in the next minibatch as a new sequence (its recurrent state there is the stored one).
    Every step appears in exactly one minibatch; no sequence crosses an episode boundary.

    Args:
        sequences: K sequences of slots (from `split_sequences`); total steps S divisible by M.
        num_minibatches: M.
        generator: source of the shuffle.
        max_len: longest sequence in learning (see `chunk`); 0 keeps whole sequences.

    Returns:
        M packed minibatches of S / M steps each.
    """
    total = sum(len(q) for q in sequences)
    if total % num_minibatches:
        raise ValueError(f"{total} steps cannot be cut into {num_minibatches} equal minibatches")
    size = total // num_minibatches
    sequences = chunk(sequences, max_len)
    batches: list[list[Tensor]] = [[] for _ in range(num_minibatches)]
    filled = 0
    for k in torch.randperm(len(sequences), generator=generator).tolist():
        seq = sequences[k]
        while len(seq):
            m, room = filled // size, size - filled % size
            batches[m].append(seq[:room])
            filled += min(room, len(seq))
            seq = seq[room:]
    return [pack(b) for b in batches]


def flat_minibatches(slots: Tensor, num_minibatches: int, generator: torch.Generator) -> list[Packed]:
    """Shuffled minibatches of single steps, for a policy without memory: each is a `Packed` of
    sequences of length 1 (`index` `[1, S / M]`).

    Args:
        slots: `[S]` buffer slots; S divisible by M.
        num_minibatches: M.
        generator: source of the shuffle.
    """
    total = len(slots)
    if total % num_minibatches:
        raise ValueError(f"{total} steps cannot be cut into {num_minibatches} equal minibatches")
    size = total // num_minibatches
    shuffled = slots[torch.randperm(total, generator=generator)]
    ones = torch.ones(size, dtype=torch.long)
    return [Packed(shuffled[i * size : (i + 1) * size][None], ones) for i in range(num_minibatches)]
