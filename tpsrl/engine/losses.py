"""PPO losses: pure tensor functions."""

from __future__ import annotations

import torch
from torch import Tensor

MAX_LOG_RATIO = 20.0
"""The log-ratio is bounded above before `exp` (e^20 ~ 5e8, far past any clip): an overlapped rollout's
action can lie deep in the proximal policy's tail (log-prob -5000 with a sharp policy a few updates later),
a few minibatch steps then move its log-prob by more than float32's `exp` range (88), and the overflowed
ratio met its truncated importance weight of 0 as 0 * inf = NaN (measured: a CI run of
`test_acting_in_workers_learns_point_target[True]` stopped with a non-finite gradient, approx_kl inf)."""


def ppo_losses(
    log_probs: Tensor,
    old_log_probs: Tensor,
    advantages: Tensor,
    values: Tensor,
    returns: Tensor,
    weights: Tensor,
    clip: float,
) -> dict[str, Tensor]:
    """Clipped-surrogate policy loss and squared-error value loss, each weighted per step.

    Args:
        log_probs: `[S]` log pi(a|s) under the current parameters.
        old_log_probs: `[S]` log pi(a|s) under the behaviour policy (stored at collection).
        advantages: `[S]` (normalised) advantages.
        values: `[S]` current value predictions.
        returns: `[S]` value targets.
        weights: `[S]` per-step importance weights (VER), 1.0 elsewhere.
        clip: epsilon of the clipped ratio (0.2).

    Returns:
        policy: -mean(w * min(r A, clip(r, 1 - eps, 1 + eps) A)),
            r = exp(min(log_probs - old_log_probs, MAX_LOG_RATIO));
        value: 0.5 * mean(w * (values - returns)^2);
        clip_fraction and approx_kl (no gradient) for logging.
    """
    log_ratio = torch.clamp(log_probs - old_log_probs, max=MAX_LOG_RATIO)
    ratio = torch.exp(log_ratio)
    surrogate = torch.min(ratio * advantages, torch.clamp(ratio, 1.0 - clip, 1.0 + clip) * advantages)
    policy = -(weights * surrogate).mean()
    value = 0.5 * (weights * (values - returns).pow(2)).mean()
    with torch.no_grad():
        clip_fraction = ((ratio - 1.0).abs() > clip).float().mean()
        approx_kl = ((ratio - 1.0) - log_ratio).mean()
    return {"policy": policy, "value": value, "clip_fraction": clip_fraction, "approx_kl": approx_kl}
