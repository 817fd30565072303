"""The flat rollout buffer of the collector: one slot per step, allocated when its action is chosen and
completed when its result arrives. Slots of one environment are chronological. Steps still in flight
when a rollout ends are carried to the front of the next rollout."""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from torch import Tensor

from tpsrl.engine.gae import gae, importance_weights
from tpsrl.engine.minibatch import pack, split_sequences


def next_values(env: Tensor, values: Tensor, tail: Tensor) -> Tensor:
    """Value of the state after each step, from chronological slots.

    Args:
        env: `[S]` environment of each slot (slots chronological within an environment).
        values: `[S]` value stored at each slot.
        tail: `[N]` value of each environment's state after its last slot.

    Returns:
        `[S]` values[next slot of the same env], or tail[env] for an environment's last slot
        (terminations and truncations are applied by the caller).
    """
    order = torch.sort(env, stable=True).indices
    e = env[order]
    out_sorted = tail[e].clone()
    same = e[1:] == e[:-1]
    out_sorted[:-1] = torch.where(same, values[order[1:]], out_sorted[:-1])
    out = torch.empty_like(values)
    out[order] = out_sorted
    return out


def carry_rows(tensors: list[Tensor], keep: Tensor) -> None:
    """Moves rows `keep` (`[P]`, ascending) of every `[C, ...]` tensor to rows `0..P-1`, in place."""
    for t in tensors:
        t[: len(keep)] = t[keep]


@dataclass
class Rollout:
    """What the learner receives: completed steps (as buffer slots), their targets and sequences."""

    buffer: RolloutBuffer
    slots: Tensor  # [S] completed slots
    advantages: Tensor  # [C] by slot (valid at `slots`)
    returns: Tensor  # [C]
    weights: Tensor  # [C] importance weights
    sequences: list[Tensor]  # K sequences of slots
    episodes: list[dict]  # episodes that ended in this rollout (see workers.EnvRunner._step)


class RolloutBuffer:
    def __init__(
        self, capacity: int, obs_space: gym.spaces.Dict, action_dim: int, state_shape: tuple[int, ...]
    ):
        self.capacity = capacity
        self.obs = {
            k: torch.zeros(capacity, *s.shape, dtype=torch.from_numpy(np.zeros(0, s.dtype)).dtype)
            for k, s in obs_space.spaces.items()
        }
        f32 = torch.float32
        self.prev_action = torch.zeros(capacity, action_dim)
        self.action = torch.zeros(capacity, action_dim)
        self.state = torch.zeros(capacity, *state_shape)
        self.log_prob = torch.zeros(capacity)
        self.value = torch.zeros(capacity)
        self.reward = torch.zeros(capacity, dtype=f32)
        self.truncation_value = torch.zeros(capacity)
        self.env = torch.zeros(capacity, dtype=torch.long)
        self.episode_start = torch.zeros(capacity, dtype=torch.bool)
        self.terminated = torch.zeros(capacity, dtype=torch.bool)
        self.truncated = torch.zeros(capacity, dtype=torch.bool)
        self.complete = torch.zeros(capacity, dtype=torch.bool)
        self.size = 0
        # numpy views sharing memory with the tensors: per-step scalar writes cost ~100x less
        self._np = {k: getattr(self, k).numpy() for k in ("reward", "terminated", "truncated", "complete",
                                                          "truncation_value")}  # fmt: skip

    def _rows(self) -> list[Tensor]:
        return [*self.obs.values(), self.prev_action, self.action, self.state, self.log_prob, self.value,
                self.reward, self.truncation_value, self.env, self.episode_start, self.terminated,
                self.truncated, self.complete]  # fmt: skip

    def allocate(self, env: Tensor, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor,
                 episode_start: Tensor, action: Tensor, log_prob: Tensor, value: Tensor) -> Tensor:  # fmt: skip
        """Stores B steps whose actions were just chosen; returns their `[B]` slots."""
        b = len(env)
        if self.size + b > self.capacity:
            raise RuntimeError(f"rollout buffer full ({self.capacity} slots)")
        slots = torch.arange(self.size, self.size + b)
        for k, x in obs.items():
            self.obs[k][slots] = x
        self.env[slots], self.prev_action[slots], self.state[slots] = env, prev_action, state
        self.episode_start[slots], self.action[slots] = episode_start, action
        self.log_prob[slots], self.value[slots] = log_prob, value
        self.complete[slots] = False
        self.size += b
        return slots

    def complete_step(self, slot: int, reward: float, terminated: bool, truncated: bool) -> None:
        np_ = self._np
        np_["reward"][slot], np_["terminated"][slot], np_["truncated"][slot] = reward, terminated, truncated
        np_["truncation_value"][slot] = 0.0
        np_["complete"][slot] = True

    def carry_pending(self) -> Tensor:
        """Starts a new rollout keeping only the steps still in flight; returns their new `[P]` slots in
        the order of their old slots."""
        keep = torch.nonzero(~self.complete[: self.size]).squeeze(1)
        carry_rows(self._rows(), keep)
        self.size = len(keep)
        return keep

    def finish(self, tail: Tensor, gamma: float, lam: float, num_envs: int, rollout_steps: int,
               max_weight: float, episodes: list[dict]) -> Rollout:  # fmt: skip
        """Computes bootstrap values, per-sequence GAE and importance weights of the completed steps.

        Args:
            tail: `[N]` value of each environment's current observation (used where no later slot of
                that environment exists).
        """
        n = self.size
        slots = torch.nonzero(self.complete[:n]).squeeze(1)
        nv = next_values(self.env[:n], self.value[:n], tail)
        nv = torch.where(self.terminated[:n], torch.zeros_like(nv), nv)
        nv = torch.where(self.truncated[:n], self.truncation_value[:n], nv)
        sequences = split_sequences(slots, self.env[slots], self.episode_start[slots])
        packed = pack(sequences)
        idx, mask = packed.index.clamp(min=0), packed.mask
        ends = (self.terminated | self.truncated)[idx]
        last = torch.zeros_like(mask)
        last[packed.lengths - 1, torch.arange(len(packed.lengths))] = True
        adv, ret = gae(self.reward[idx], self.value[idx], nv[idx], ends | last | ~mask, gamma, lam)
        advantages, returns = torch.zeros(self.capacity), torch.zeros(self.capacity)
        advantages[packed.index[mask]], returns[packed.index[mask]] = adv[mask], ret[mask]
        weights = torch.ones(self.capacity)
        weights[slots] = importance_weights(self.env[slots], num_envs, rollout_steps, max_weight)
        return Rollout(self, slots, advantages, returns, weights, sequences, episodes)
