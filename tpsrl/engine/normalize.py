"""Running normalisers kept inside the policy (so checkpoints carry them): observations and value targets.

- `merge_moments` is the pure update (Chan et al.'s parallel mean/variance merge), tested by hand.
- `RunningMeanStd` holds `[D]` running moments as module buffers and normalises (and clips) inputs.
- `ValueNormalizer` is PopArt (van Hasselt et al., 2016): the critic predicts normalised values; the
  running mean and std of the returns turn them back into returns; when the statistics move, the critic's
  last linear layer is rescaled so that its un-normalised outputs do not change ("preserving outputs
  precisely"). This is what lets one set of PPO settings learn returns of size 1 and of size 1000.
"""

from __future__ import annotations

import torch
from torch import Tensor, nn


def merge_moments(
    mean: Tensor, var: Tensor, count: Tensor, batch_mean: Tensor, batch_var: Tensor, batch_count: float
) -> tuple[Tensor, Tensor, Tensor]:
    """Merges running moments with a batch's (population variances).

    Args:
        mean, var: `[D]` running mean and variance of `count` samples.
        count: `[]` samples seen so far.
        batch_mean, batch_var: `[D]` mean and variance of the new batch.
        batch_count: samples in the batch.

    Returns:
        (mean, var, count) of the union: mean + delta * n_b / n, and
        (var * n_a + batch_var * n_b + delta^2 * n_a * n_b / n) / n, with delta = batch_mean - mean.
    """
    total = count + batch_count
    delta = batch_mean - mean
    new_mean = mean + delta * (batch_count / total)
    m2 = var * count + batch_var * batch_count + delta.square() * (count * batch_count / total)
    return new_mean, m2 / total, total


class RunningMeanStd(nn.Module):
    """Running mean and variance of `[S, D]` samples; `normalize` maps to zero mean, unit variance and
    clips to [-clip, clip]."""

    def __init__(self, dim: int, clip: float = 10.0, eps: float = 1e-8) -> None:
        super().__init__()
        self.clip, self.eps = clip, eps
        self.register_buffer("mean", torch.zeros(dim))
        self.register_buffer("var", torch.ones(dim))
        self.register_buffer("count", torch.tensor(0.0))
        self.register_buffer("_inv_std", torch.ones(dim), persistent=False)  # moves with .to(device)
        self._refresh()

    @property
    def std(self) -> Tensor:
        return torch.sqrt(self.var + self.eps)

    @property
    def ready(self) -> bool:
        """Whether there are statistics (before the first update `normalize` is the identity)."""
        return self._ready

    def _refresh(self) -> None:
        """Caches what `normalize` needs, so the acting path does no reduction or `.item()` per call. In
        place: a traced acting call (`ActorCritic.traced_act`) holds on to this tensor."""
        self._ready = bool(self.count > 0)
        self._inv_std.copy_(1.0 / self.std)

    def _load_from_state_dict(self, *args: object, **kwargs: object) -> None:
        super()._load_from_state_dict(*args, **kwargs)  # type: ignore[arg-type]
        self._refresh()

    @torch.no_grad()
    def update(self, x: Tensor) -> None:
        """Adds `[S, D]` samples (S >= 1) to the running moments."""
        x = x.reshape(x.shape[0], -1).to(self.mean.dtype)
        if x.shape[0] == 0:
            return
        mean, var, count = merge_moments(
            self.mean, self.var, self.count, x.mean(0), x.var(0, unbiased=False), float(x.shape[0])
        )
        self.mean.copy_(mean)
        self.var.copy_(var)
        self.count.copy_(count)
        self._refresh()

    def normalize(self, x: Tensor) -> Tensor:
        """`[..., D]` -> clip((x - mean) / std); the identity until the first update."""
        if not self._ready:
            return x
        return ((x - self.mean) * self._inv_std).clamp(-self.clip, self.clip)


class ValueNormalizer(nn.Module):
    """PopArt: running statistics of the value targets, with output-preserving updates of the critic head."""

    def __init__(self, eps: float = 1e-5) -> None:
        super().__init__()
        self.eps = eps
        self.register_buffer("mean", torch.zeros(()))
        self.register_buffer("var", torch.ones(()))
        self.register_buffer("count", torch.tensor(0.0))

    @property
    def std(self) -> Tensor:
        return torch.sqrt(self.var).clamp(min=self.eps)

    def normalize(self, x: Tensor) -> Tensor:
        """Returns -> the critic's normalised scale."""
        return (x - self.mean) / self.std

    def denormalize(self, x: Tensor) -> Tensor:
        """The critic's outputs -> returns."""
        return x * self.std + self.mean

    @torch.no_grad()
    def update(self, returns: Tensor, head: nn.Linear) -> None:
        """Adds `[S]` returns to the statistics and rescales `head` (the critic's last layer, out_features
        1) so that `denormalize(head(h))` is unchanged for every h: W' = W s / s', b' = (s b + m - m') / s'."""
        if returns.numel() == 0:
            return
        old_mean, old_std = self.mean.clone(), self.std.clone()
        r = returns.reshape(-1).to(self.mean.dtype)
        mean, var, count = merge_moments(
            self.mean[None],
            self.var[None],
            self.count,
            r.mean()[None],
            r.var(unbiased=False)[None],
            float(r.numel()),
        )
        self.mean.copy_(mean[0])
        self.var.copy_(var[0])
        self.count.copy_(count)
        new_std = self.std
        head.weight.mul_(old_std / new_std)
        head.bias.mul_(old_std).add_(old_mean - self.mean).div_(new_std)
