"""Training on a CUDA device (`run.device=cuda`): the learner gives the numbers it gives on a CPU, with the
trainer acting and with the workers acting, and a run started on the GPU resumes on a CPU. Deselected by
default (`-m gpu` runs them; they need a CUDA device). Until 2026-11-28 PopArt's statistics on the device
met the rollout's returns in host memory and the first update failed."""

from __future__ import annotations

import copy
import math
from pathlib import Path

import pytest
import torch

from tests.engine.conftest import tiny_config
from tests.engine.test_acting import make
from tpsrl.engine import checkpoint as ckpt
from tpsrl.engine.ppo import PPO, PPOConfig
from tpsrl.engine.synthetic import PointTargetFactory
from tpsrl.engine.train import train

pytestmark = [
    pytest.mark.gpu,
    pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device"),
]

COMPARED = (
    "loss/policy",
    "loss/value",
    "loss/approx_kl",
    "loss/entropy",
    "learn/return_mean",
    "learn/return_std",
)


@pytest.mark.parametrize("lagged", [False, True])
@pytest.mark.parametrize("kind", ["lstm", "mlp"])
def test_cuda_learner_matches_cpu(kind: str, lagged: bool) -> None:
    """One learning phase on the same rollout from the same weights: the GPU's losses, return statistics
    and new weights are the CPU's to float rounding (whole runs differ: actions are sampled from another
    generator)."""
    c = make(t=32, kind=kind, overlap_learning=lagged)
    try:
        rollout = c.collect()
    finally:
        c.close()
    assert rollout is not None and rollout.lagged == lagged
    learned = {}
    for device in ("cpu", "cuda"):
        policy = copy.deepcopy(c.policy).to(device)
        metrics = PPO(policy, PPOConfig(epochs=2, num_minibatches=2), torch.device(device), 0).update(
            rollout, 0, 10
        )
        learned[device] = (metrics, {k: x.cpu() for k, x in policy.state_dict().items()})
    (cpu, cpu_w), (gpu, gpu_w) = learned["cpu"], learned["cuda"]
    for key in COMPARED:
        assert math.isclose(cpu[key], gpu[key], rel_tol=1e-3, abs_tol=1e-5), (key, cpu[key], gpu[key])
    for k in cpu_w:
        assert torch.allclose(cpu_w[k], gpu_w[k], rtol=1e-3, atol=1e-5), k


@pytest.mark.parametrize("kind", ["lstm", "mlp"])
def test_cuda_run_with_acting_workers_resumes_on_cpu(tmp_path: Path, kind: str) -> None:
    cfg = tiny_config(tmp_path, serial=False, device="cuda", total_steps=3_200, checkpoint_every=5)
    cfg.engine.act_in_workers, cfg.engine.envs_per_worker, cfg.policy.kind = True, 2, kind
    first = train(cfg, PointTargetFactory())
    assert first.counters.env_steps == 3_200
    assert all(math.isfinite(m["loss/value"]) for m in first.history)
    cfg.run.device, cfg.run.resume, cfg.run.total_steps = "cpu", True, 4_480
    second = train(cfg, PointTargetFactory())
    assert second.counters.env_steps == 4_480 and len(second.history) == 10
    saved = ckpt.load(first.run_dir / "checkpoints" / ckpt.LATEST)
    assert saved["counters"]["env_steps"] == 4_480
