"""Returns, advantages and VER importance weights: pure tensor functions."""

from __future__ import annotations

import torch
from torch import Tensor


def gae(
    rewards: Tensor, values: Tensor, next_values: Tensor, cuts: Tensor, gamma: float, lam: float
) -> tuple[Tensor, Tensor]:
    """Generalised advantage estimation along dim 0.

    Args:
        rewards: `[T, K]` reward of step t.
        values: `[T, K]` V(s_t).
        next_values: `[T, K]` value of the state after step t: V(s_{t+1}) inside an episode, the value of
            the final observation when the episode was truncated, 0 when it terminated.
        cuts: `[T, K]` bool, True where the lambda recursion stops after step t (episode end, or the last
            step of a sequence; padding after a sequence's end must be cut too).
        gamma: discount.
        lam: GAE lambda.

    Returns:
        (advantages `[T, K]`, returns `[T, K]` = advantages + values).
    """
    advantages = torch.zeros_like(rewards)
    running = torch.zeros_like(rewards[0])
    keep = (~cuts).to(rewards.dtype)
    for t in range(rewards.shape[0] - 1, -1, -1):
        delta = rewards[t] + gamma * next_values[t] - values[t]
        running = delta + gamma * lam * keep[t] * running
        advantages[t] = running
    return advantages, advantages + values


def importance_weights(
    env_index: Tensor, num_envs: int, rollout_steps: int, max_weight: float = 1.0
) -> Tensor:
    """VER's truncated importance weights.

    Args:
        env_index: `[S]` environment of each collected step.
        num_envs: N.
        rollout_steps: T, the nominal steps per environment per rollout.
        max_weight: truncation (1.0 in the paper).

    Returns:
        `[S]` weight min(max_weight, (T + 1) / (n_e + 1)), n_e = steps contributed by the step's
        environment (the reference implementation's form: exactly 1 when every environment gives T steps).
    """
    counts = torch.bincount(env_index, minlength=num_envs).to(torch.float32)
    per_env = torch.clamp((rollout_steps + 1) / (counts + 1.0), max=max_weight)
    return per_env[env_index]


def normalize(x: Tensor, eps: float = 1e-8) -> Tensor:
    """`[S]` -> zero mean, unit standard deviation."""
    return (x - x.mean()) / (x.std(unbiased=False) + eps)
