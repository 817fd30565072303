"""Bootstrap values, returns, advantages and VER importance weights: pure tensor functions."""

from __future__ import annotations

import torch
from torch import Tensor


def next_values(env: Tensor, values: Tensor, tail: Tensor) -> Tensor:
    """Value of the state after each step, from chronological slots.

    Args:
        env: `[S]` environment of each slot (slots chronological within an environment).
        values: `[S]` value stored at each slot.
        tail: `[N]` value of each environment's state after its last slot.

    Returns:
        `[S]` values[next slot of the same env], or tail[env] for an environment's last slot
        (`bootstrap_values` then applies episode ends).
    """
    order = torch.sort(env, stable=True).indices
    e = env[order]
    out_sorted = tail[e].clone()
    same = e[1:] == e[:-1]
    out_sorted[:-1] = torch.where(same, values[order[1:]], out_sorted[:-1])
    out = torch.empty_like(values)
    out[order] = out_sorted
    return out


def bootstrap_values(
    env: Tensor, values: Tensor, tail: Tensor, terminated: Tensor, truncated: Tensor, truncation_value: Tensor
) -> Tensor:
    """What `gae` bootstraps from after each step (its `next_values`), from chronological slots.

    Args:
        env, values, tail: as `next_values`.
        terminated: `[S]` bool, the episode ended at this step (no value after it).
        truncated: `[S]` bool, the episode was cut at this step (time limit), not ended.
        truncation_value: `[S]` value of the final observation of a truncated episode (read where
            `truncated`).

    Returns:
        `[S]` 0 where terminated, truncation_value where truncated, else `next_values`.
    """
    nv = next_values(env, values, tail)
    nv = torch.where(terminated, torch.zeros_like(nv), nv)
    return torch.where(truncated, truncation_value, nv)


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
