"""Observation and value normalisers against numbers worked out by hand."""

from __future__ import annotations

import torch

from tpsrl.engine.normalize import RunningMeanStd, ValueNormalizer, merge_moments


def test_merge_moments_hand_computed() -> None:
    # Running: samples {1, 3} -> mean 2, var 1, n 2. Batch: {5, 7, 9} -> mean 7, var 8/3, n 3.
    # Union {1, 3, 5, 7, 9}: mean 5, population var (16 + 4 + 0 + 4 + 16) / 5 = 8.
    mean, var, count = merge_moments(
        torch.tensor([2.0]),
        torch.tensor([1.0]),
        torch.tensor(2.0),
        torch.tensor([7.0]),
        torch.tensor([8 / 3]),
        3.0,
    )
    assert torch.allclose(mean, torch.tensor([5.0])) and torch.allclose(var, torch.tensor([8.0]))
    assert count.item() == 5.0


def test_running_mean_std_matches_batch_statistics_and_clips() -> None:
    torch.manual_seed(0)
    data = torch.randn(1000, 3) * torch.tensor([1.0, 10.0, 0.1]) + torch.tensor([5.0, -2.0, 0.0])
    norm = RunningMeanStd(3, clip=2.0)
    x = torch.tensor([[7.0, 1.0, 3.0]])
    assert torch.equal(norm.normalize(x), x)  # identity before any data
    for part in data.split(137):
        norm.update(part)
    assert torch.allclose(norm.mean, data.mean(0), atol=1e-5)
    assert torch.allclose(norm.var, data.var(0, unbiased=False), rtol=1e-4)
    out = norm.normalize(data)
    assert torch.allclose(out.mean(0), torch.zeros(3), atol=0.05)
    assert out.abs().max() <= 2.0  # clipped


def test_popart_update_preserves_outputs_and_normalises_targets() -> None:
    torch.manual_seed(0)
    head = torch.nn.Linear(4, 1)
    vn = ValueNormalizer()
    h = torch.randn(16, 4)
    before = vn.denormalize(head(h)).detach()
    returns = torch.tensor([100.0, 300.0])  # mean 200, std 100
    vn.update(returns, head)
    assert vn.mean.item() == 200.0 and abs(vn.std.item() - 100.0) < 1e-4
    assert torch.allclose(vn.denormalize(head(h)), before, atol=1e-4)
    assert torch.allclose(vn.normalize(returns), torch.tensor([-1.0, 1.0]))
    vn.update(torch.tensor([500.0, 700.0, 900.0]), head)  # union {100, ..., 900}: mean 500, var 80000
    assert abs(vn.mean.item() - 500.0) < 1e-3 and abs(vn.std.item() - 80000**0.5) < 1e-2
    assert torch.allclose(vn.denormalize(head(h)), before, atol=1e-3)
