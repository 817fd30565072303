"""The default `run.wandb=offline` works with the installed wandb (no network) and a resumed run
continues the same wandb run."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from tests.engine.conftest import tiny_config
from tpsrl.engine.train import train

pytestmark = pytest.mark.timeout(300)


def test_wandb_offline_logs_and_resume_continues_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WANDB_SILENT", "true")
    monkeypatch.delenv("WANDB_MODE", raising=False)
    cfg = tiny_config(tmp_path, total_steps=64, wandb="offline")
    cfg.engine.num_envs = 2
    with warnings.catch_warnings():
        warnings.filterwarnings("error", message="wandb disabled")
        result = train(cfg)
        run_id = (result.run_dir / "wandb_id").read_text()
        cfg.run.resume, cfg.run.total_steps = True, 128
        train(cfg)
    runs = sorted((result.run_dir / "wandb").glob("offline-run-*"))
    # wandb names a run's folder offline-run-<time>-<id>, adding "-1" when two share a second.
    assert len(runs) == 2 and all(f"-{run_id}" in r.name for r in runs)
    assert all(list(r.glob("*.wandb")) for r in runs)
    assert (result.run_dir / "wandb_id").read_text() == run_id
