"""Config validation, Hydra composition, run-directory protection and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.engine.conftest import tiny_config
from tpsrl.engine.config import ConfigError, TrainConfig, from_dict, validate
from tpsrl.engine.synthetic import PointTargetFactory
from tpsrl.engine.train import RunDirError, compose_config, train

REPO = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(
    ("section", "field", "value", "accepted"),
    [
        ("engine", "mode", "fast", "ver | nover | sync"),
        ("engine", "num_envs", 0, ">= 1"),
        ("engine", "min_batch", 99, "1 .. engine.num_envs"),
        ("engine", "start_method", "thread", "accepted"),
        ("ppo", "num_minibatches", 3, "dividing"),
        ("ppo", "clip", 1.5, "0 < clip < 1"),
        ("ppo", "entropy_coef_init", 2.0, "within"),
        ("ppo", "lr_schedule", "linear", "cosine | constant"),
        ("ppo", "lr_decay_start", 1.0, "0 <= fraction < 1"),
        ("ppo", "obs_stats_until", -1, "an integer >= 0"),
        ("policy", "image_encoder", "vit", "cnn | resnet18"),
        ("run", "wandb", "maybe", "offline | online | disabled"),
    ],
)
def test_invalid_values_name_the_field_and_accepted_values(
    section: str, field: str, value: object, accepted: str
) -> None:
    cfg = TrainConfig()
    setattr(getattr(cfg, section), field, value)
    with pytest.raises(ConfigError) as err:
        validate(cfg)
    assert f"{section}.{field}={value!r}" in str(err.value) and accepted in str(err.value)


def test_unknown_or_mistyped_fields_are_named() -> None:
    with pytest.raises(Exception, match="num_env"):
        from_dict({"engine": {"num_env": 4}})
    with pytest.raises(Exception, match="rollout_steps"):
        from_dict({"engine": {"rollout_steps": "many"}})


def test_hydra_composition_and_engine_presets() -> None:
    cfg = compose_config(["env.id=Pendulum-v1", "engine=sync", "engine.num_envs=4", "ppo.epochs=2"])
    assert isinstance(cfg, TrainConfig)
    assert (cfg.engine.mode, cfg.engine.num_envs, cfg.ppo.epochs) == ("sync", 4, 2)
    assert cfg.run.dir.startswith("runs/Pendulum-v1/")
    assert compose_config([]).engine.mode == "ver"
    assert compose_config(["engine.mode=nover"]).engine.mode == "nover"


def test_run_dir_is_never_silently_overwritten(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path, total_steps=128)
    train(cfg, PointTargetFactory())
    with pytest.raises(RunDirError, match="run.resume=true") as err:
        train(cfg, PointTargetFactory())
    assert str(tmp_path / "run") in str(err.value)
    fresh = tiny_config(tmp_path / "other", resume=True)
    with pytest.raises(RunDirError, match="does not exist"):
        train(fresh, PointTargetFactory())


def test_resume_refuses_changed_learning_fields(tmp_path: Path) -> None:
    cfg = tiny_config(tmp_path, total_steps=128)
    train(cfg, PointTargetFactory())
    cfg.run.resume = True
    cfg.ppo.clip = 0.3
    with pytest.raises(ConfigError, match="ppo.clip"):
        train(cfg, PointTargetFactory())


def test_resume_names_the_engine_fields_it_lets_change(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    cfg = tiny_config(tmp_path, total_steps=128)
    train(cfg, PointTargetFactory())
    cfg.run.resume, cfg.run.total_steps, cfg.engine.trace_acting = True, 256, not cfg.engine.trace_acting
    train(cfg, PointTargetFactory())
    err = capsys.readouterr().err
    assert f"resuming with engine.trace_acting={cfg.engine.trace_acting!r}" in err
    assert "run.total_steps" not in err


def test_resume_of_a_run_older_than_a_field(tmp_path: Path) -> None:
    """A run saved before a field existed resumes while the field keeps its default (what the run did),
    and is refused when it is set otherwise."""
    import torch

    cfg = tiny_config(tmp_path, total_steps=128)
    train(cfg, PointTargetFactory())
    path = Path(cfg.run.dir) / "checkpoints" / "latest.pt"
    state = torch.load(path, weights_only=False)
    del state["config"]["ppo"]["lr_decay_start"]  # as saved before the field was added
    torch.save(state, path)
    cfg.run.resume, cfg.run.total_steps = True, 256
    assert train(cfg, PointTargetFactory()).counters.env_steps >= 256
    cfg.ppo.lr_decay_start, cfg.run.total_steps = 0.5, 384
    with pytest.raises(ConfigError, match="ppo.lr_decay_start"):
        train(cfg, PointTargetFactory())


def test_cli_trains_a_registered_gymnasium_env(tmp_path: Path) -> None:
    run_dir = tmp_path / "pendulum"
    cmd = [
        sys.executable,
        "-m",
        "skills.train",
        "env.id=Pendulum-v1",
        "engine.num_envs=2",
        "engine.rollout_steps=16",
        "engine.serial=true",
        "ppo.epochs=1",
        "policy.hidden_size=16",
        "run.total_steps=64",
        "run.wandb=disabled",
        "run.progress=false",
        f"run.dir={run_dir}",
    ]
    env = {**os.environ, "OMP_NUM_THREADS": "1"}
    out = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    lines = (run_dir / "metrics.jsonl").read_text().splitlines()
    assert [json.loads(x)["env_steps"] for x in lines] == [32, 64]
    assert (run_dir / "checkpoints" / "latest.pt").exists()
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env)
    assert again.returncode == 2 and "run.resume=true" in again.stderr
    bad = subprocess.run(
        cmd[:3] + ["engine.mode=fast", f"run.dir={tmp_path / 'x'}"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
    )
    assert bad.returncode == 2 and "engine.mode='fast'" in bad.stderr
