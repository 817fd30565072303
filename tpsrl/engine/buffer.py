"""The flat rollout buffer of the collector: one slot per step, allocated when its action is chosen and
completed when its result arrives. Slots of one environment are chronological. Steps still in flight
when a rollout ends are carried to the front of the next rollout."""

from __future__ import annotations

from dataclasses import dataclass

import gymnasium as gym
import numpy as np
import torch
from torch import Tensor

from tpsrl.engine.gae import bootstrap_values, gae, importance_weights
from tpsrl.engine.minibatch import pack, split_sequences
from tpsrl.engine.workers import EpisodeSummary


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
    episodes: list[EpisodeSummary]  # episodes that ended in this rollout
    lagged: bool = False  # acted (in part) by weights older than the learner's (overlapped learning)


_ROWS = (
    "prev_action",
    "action",
    "state",
    "log_prob",
    "value",
    "reward",
    "truncation_value",
    "env",
    "episode_start",
    "terminated",
    "truncated",
    "complete",
)


class RolloutBuffer:
    """Step data by slot, as tensors `[C, ...]` (what the learner reads) with numpy views of the same
    memory (`np`, `np_obs`: what the collector writes)."""

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
        # numpy views sharing memory with the tensors: the collector's writes cost ~10-100x less in numpy
        self.np_obs = {k: x.numpy() for k, x in self.obs.items()}
        self.np = {k: getattr(self, k).numpy() for k in _ROWS}

    def _rows(self) -> list[Tensor]:
        return [
            *self.obs.values(),
            self.prev_action,
            self.action,
            self.state,
            self.log_prob,
            self.value,
            self.reward,
            self.truncation_value,
            self.env,
            self.episode_start,
            self.terminated,
            self.truncated,
            self.complete,
        ]

    def allocate(
        self,
        env: np.ndarray,
        obs: dict[str, np.ndarray],
        prev_action: np.ndarray,
        state: np.ndarray,
        episode_start: np.ndarray,
        action: np.ndarray,
        log_prob: np.ndarray,
        value: np.ndarray,
    ) -> np.ndarray:
        """Stores B steps whose actions were just chosen (numpy `[B, ...]` arrays); returns their `[B]` slots."""
        b, lo = len(env), self.size
        if lo + b > self.capacity:
            raise RuntimeError(f"rollout buffer full ({self.capacity} slots)")
        hi, np_ = lo + b, self.np
        for k, x in obs.items():
            self.np_obs[k][lo:hi] = x
        np_["env"][lo:hi], np_["prev_action"][lo:hi], np_["state"][lo:hi] = env, prev_action, state
        np_["episode_start"][lo:hi], np_["action"][lo:hi] = episode_start, action
        np_["log_prob"][lo:hi], np_["value"][lo:hi] = log_prob, value
        np_["complete"][lo:hi] = False
        self.size = hi
        return np.arange(lo, hi)

    def complete_steps(
        self, slots: np.ndarray, reward: np.ndarray, terminated: np.ndarray, truncated: np.ndarray
    ) -> None:
        """Records the results `[B]` of the steps at `slots` `[B]`."""
        np_ = self.np
        np_["reward"][slots] = reward
        np_["terminated"][slots] = terminated
        np_["truncated"][slots] = truncated
        np_["truncation_value"][slots] = 0.0
        np_["complete"][slots] = True

    def carry_pending(self) -> np.ndarray:
        """Starts a new rollout keeping only the steps still in flight; returns their old slots `[P]`
        (ascending): the step at old slot keep[i] is now at slot i."""
        keep = np.flatnonzero(~self.np["complete"][: self.size])
        carry_rows(self._rows(), torch.from_numpy(keep))
        self.size = len(keep)
        return keep

    def finish(
        self,
        tail: Tensor,
        *,
        gamma: float,
        lam: float,
        num_envs: int,
        rollout_steps: int,
        max_weight: float,
        episodes: list[EpisodeSummary],
    ) -> Rollout:
        """Computes bootstrap values, per-sequence GAE and importance weights of the completed steps.

        Args:
            tail: `[N]` value of each environment's current observation (used where no later slot of
                that environment exists).
        """
        n = self.size
        slots = torch.nonzero(self.complete[:n]).squeeze(1)
        nv = bootstrap_values(
            self.env[:n],
            self.value[:n],
            tail,
            self.terminated[:n],
            self.truncated[:n],
            self.truncation_value[:n],
        )
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
