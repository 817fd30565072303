"""The learned entropy coefficient and the learning-rate schedule: pure functions."""

from __future__ import annotations

import math

from torch import Tensor


def entropy_coef_step(
    log_coef: Tensor, entropy: Tensor, target: float, lr: float, bounds: tuple[float, float]
) -> Tensor:
    """One gradient step of the entropy coefficient alpha toward a target entropy.

    Descends L(log alpha) = log alpha * (H - H_target): alpha grows while the policy's entropy H is below
    the target and shrinks while it is above, then is clipped to `bounds` ([1e-4, 1] in the paper).

    Args:
        log_coef: `[]` log alpha.
        entropy: `[]` mean policy entropy of the minibatch (no gradient needed).
        target: H_target.
        lr: step size on log alpha.
        bounds: (min alpha, max alpha).

    Returns:
        `[]` the new log alpha = clip(log alpha - lr * (H - H_target), log min, log max).
    """
    new = log_coef - lr * (entropy.detach() - target)
    return new.clamp(math.log(bounds[0]), math.log(bounds[1]))


def cosine_lr(base_lr: float, update: int, total_updates: int, start: float = 0.0) -> float:
    """Learning rate for update `update` (0-based) of `total_updates`: base_lr until the fraction `start`
    of the updates, then cosine decay to 0 at the last."""
    progress = (update / max(1, total_updates) - start) / (1.0 - start)
    return base_lr * 0.5 * (1.0 + math.cos(math.pi * min(1.0, max(0.0, progress))))


def gaussian_entropy(log_std: Tensor) -> Tensor:
    """`[A]` log-stds -> `[]` entropy of the independent Gaussian: sum(0.5 * log(2 pi e) + log_std)."""
    return (0.5 * math.log(2 * math.pi * math.e) + log_std).sum()
