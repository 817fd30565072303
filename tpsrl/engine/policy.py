"""Recurrent actor-critic: dict-observation encoder + previous action -> 2-layer LSTM -> independent
Gaussian actions (learned, state-independent log-std) and a value head.

Recurrent state layout everywhere in the engine: `[B, layers, 2, H]` (index 0 of dim 2 is h, 1 is c).
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator
from dataclasses import dataclass

import gymnasium as gym
import torch
from torch import Tensor, nn
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence

from tpsrl.engine.encoders import IMAGE_ENCODERS, DictEncoder
from tpsrl.engine.entropy import gaussian_entropy


@dataclass
class PolicyConfig:
    """Actor-critic architecture."""

    hidden_size: int = 512
    """LSTM hidden size (512 in the VER paper)."""
    lstm_layers: int = 2
    """Number of stacked LSTM layers."""
    mlp_hidden: int = 128
    """Width of the MLP over the concatenated vector observations."""
    image_encoder: str = "cnn"
    """Encoder for `[H, W, C]` image observations such as depth: cnn | resnet18 (half width, GroupNorm)."""
    image_features: int = 256
    """Output features of each image encoder."""
    init_log_std: float = 0.0
    """Initial log standard deviation of every action dimension."""


@contextlib.contextmanager
def _without_onednn() -> Iterator[None]:
    """Turns oneDNN off for one call (the encoders keep it: it speeds up their convolutions)."""
    before = torch.backends.mkldnn.enabled
    torch.backends.mkldnn.enabled = False
    try:
        yield
    finally:
        torch.backends.mkldnn.enabled = before


class ActorCritic(nn.Module):
    """The policy and value function shared by all collection modes."""

    def __init__(self, obs_space: gym.spaces.Dict, action_dim: int, cfg: PolicyConfig) -> None:
        super().__init__()
        if cfg.image_encoder not in IMAGE_ENCODERS:
            raise ValueError(
                f"policy.image_encoder={cfg.image_encoder!r}; accepted: {sorted(IMAGE_ENCODERS)}"
            )
        self.cfg = cfg
        self.action_dim = action_dim
        self.encoder = DictEncoder(obs_space, cfg.image_encoder, cfg.image_features, cfg.mlp_hidden)
        self.lstm = nn.LSTM(self.encoder.out_features + action_dim, cfg.hidden_size, cfg.lstm_layers)
        self.actor = nn.Linear(cfg.hidden_size, action_dim)
        self.critic = nn.Linear(cfg.hidden_size, 1)
        self.log_std = nn.Parameter(torch.full((action_dim,), float(cfg.init_log_std)))
        nn.init.orthogonal_(self.actor.weight, gain=0.01)
        nn.init.zeros_(self.actor.bias)
        nn.init.orthogonal_(self.critic.weight, gain=1.0)
        nn.init.zeros_(self.critic.bias)

    def state_shape(self) -> tuple[int, int, int]:
        """Per-environment recurrent state shape `[layers, 2, H]`."""
        return (self.cfg.lstm_layers, 2, self.cfg.hidden_size)

    def _inputs(self, obs: dict[str, Tensor], prev_action: Tensor) -> Tensor:
        return torch.cat([self.encoder(obs), prev_action], dim=-1)

    def _dist(self, core: Tensor) -> torch.distributions.Normal:
        return torch.distributions.Normal(self.actor(core), self.log_std.exp().expand(core.shape[0], -1))

    def entropy(self) -> Tensor:
        """`[]` entropy of the (state-independent) action distribution."""
        return gaussian_entropy(self.log_std)

    @torch.inference_mode()
    def act(
        self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor, deterministic: bool = False
    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """One step for a batch of environments.

        Args:
            obs: `{key: [B, *shape]}`.
            prev_action: `[B, A]` (zeros at episode starts).
            state: `[B, layers, 2, H]` (zeros at episode starts).
            deterministic: use the mean action.

        Returns:
            action `[B, A]`, log_prob `[B]`, value `[B]`, next state `[B, layers, 2, H]`.
        """
        x = self._inputs(obs, prev_action)
        h, c = state.permute(1, 2, 0, 3).contiguous().unbind(1)
        with _without_onednn():  # oneDNN's LSTM costs ~2.5x more per small-batch acting call on CPU
            out, (h, c) = self.lstm(x.unsqueeze(0), (h, c))
        core = out[0]
        mean, log_std = self.actor(core), self.log_std
        noise = torch.zeros_like(mean) if deterministic else torch.randn_like(mean)
        action = mean + noise * log_std.exp()
        # log N(a; mean, std) summed over dims, written out: faster than torch.distributions per call
        log_prob = (-0.5 * noise.square() - log_std - 0.5 * math.log(2 * math.pi)).sum(-1)
        value = self.critic(core).squeeze(-1)
        next_state = torch.stack([h, c], dim=1).permute(2, 0, 1, 3)
        return action, log_prob, value, next_state

    @torch.inference_mode()
    def value(self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor) -> Tensor:
        """`[B]` value of a batch of observations (used to bootstrap truncated episodes and rollout ends)."""
        return self.act(obs, prev_action, state, deterministic=True)[2]

    def evaluate(
        self,
        obs: dict[str, Tensor],
        prev_action: Tensor,
        actions: Tensor,
        mask: Tensor,
        lengths: Tensor,
        start_state: Tensor,
    ) -> tuple[Tensor, Tensor]:
        """Log-probs and values of stored steps, running the LSTM over sequences in packed layout.

        Args:
            obs, prev_action, actions: step data `[S, ...]` in the row-major order of `mask`'s True entries.
            mask: `[L, K]` bool, True where sequence k has a step at time l; columns sorted by length,
                longest first, so that all sequences advance one step per batched LSTM call.
            lengths: `[K]` sequence lengths (descending).
            start_state: `[K, layers, 2, H]` recurrent state at each sequence's first step.

        Returns:
            log_probs `[S]`, values `[S]`.
        """
        x = self._inputs(obs, prev_action)
        padded = x.new_zeros(*mask.shape, x.shape[-1])
        padded[mask] = x
        packed = pack_padded_sequence(padded, lengths.cpu(), enforce_sorted=True)
        h0, c0 = start_state.permute(1, 2, 0, 3).contiguous().unbind(1)
        out, _ = self.lstm(packed, (h0, c0))
        core = pad_packed_sequence(out, total_length=mask.shape[0])[0][mask]
        return self._dist(core).log_prob(actions).sum(-1), self.critic(core).squeeze(-1)
