"""PPO losses: pure tensor functions."""

from __future__ import annotations

import torch
from torch import Tensor


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
        policy: -mean(w * min(r A, clip(r, 1 - eps, 1 + eps) A)), r = exp(log_probs - old_log_probs);
        value: 0.5 * mean(w * (values - returns)^2);
        clip_fraction and approx_kl (no gradient) for logging.
    """
    ratio = torch.exp(log_probs - old_log_probs)
    surrogate = torch.min(ratio * advantages, torch.clamp(ratio, 1.0 - clip, 1.0 + clip) * advantages)
    policy = -(weights * surrogate).mean()
    value = 0.5 * (weights * (values - returns).pow(2)).mean()
    with torch.no_grad():
        clip_fraction = ((ratio - 1.0).abs() > clip).float().mean()
        approx_kl = ((ratio - 1.0) - (log_probs - old_log_probs)).mean()
    return {"policy": policy, "value": value, "clip_fraction": clip_fraction, "approx_kl": approx_kl}
