"""Every bad override gives one clear error naming the field, the value and what is accepted: the
issue's raw tracebacks and silently accepted values, and the earlier sweep's other bad values."""

from __future__ import annotations

from pathlib import Path

import pytest

from skills.train import compose, run
from tests.reliability.helpers import TINY, cli
from tpsrl.engine.config import ConfigError

pytestmark = pytest.mark.timeout(300)

REARRANGE = "env.id=tpsrl.sim.gym_register:tpsrl/Rearrange-v0"
BAD_OVERRIDES: list[tuple[list[str], list[str]]] = [
    # raw tracebacks before
    (["policy.mlp_hidden=-4"], ["policy.mlp_hidden", "-4", ">= 1"]),
    (["run.torch_threads=-1"], ["run.torch_threads", "-1", ">= 0"]),
    (["ppo.adam_eps=-1"], ["ppo.adam_eps", "-1", "> 0"]),
    (["policy.init_log_std=nan"], ["policy.init_log_std", "nan", "finite"]),
    (["policy.init_log_std=1000"], ["policy.init_log_std", "1000", "-20 .. 5"]),
    (["env.id=NoSuchEnv-v0"], ["env.id", "NoSuchEnv-v0", "registered gymnasium id"]),
    (["env.id=CartPole-v1"], ["env.id", "CartPole-v1", "Discrete", "Box"]),
    (["+env.kwargs.bogus=1"], ["env.kwargs", "bogus", "accepted"]),
    (["run.device=cuda:0"], ["run.device", "cuda", "accepted"]),
    (["run.device=tpu"], ["run.device", "tpu", "cpu | cuda | cuda:K"]),
    ([REARRANGE, "+env.kwargs.config={max_steps:-3}"], ["env.kwargs", "max_steps", "-3", ">= 1"]),
    ([REARRANGE, "+env.kwargs.config={n_targets:-1}"], ["env.kwargs", "n_targets", ">= 0"]),
    ([REARRANGE, "+env.kwargs.config={actions:[fly]}"], ["env.kwargs", "fly", "accepted"]),
    ([REARRANGE, "+env.kwargs.config={episodes_file:/nonexistent.json}"], ["env.kwargs", "nonexistent.json"]),
    # silently accepted before
    (["+run.chekpoint_every=5"], ["run.chekpoint_every", "unknown", "did you mean run.checkpoint_every"]),
    (["ppo.value_coef=-1"], ["ppo.value_coef", "-1", ">= 0"]),
    (["ppo.entropy_coef_lr=-1"], ["ppo.entropy_coef_lr", "-1", ">= 0"]),
    (["run.keep_every=-1"], ["run.keep_every", "-1", ">= 0"]),
    (["+foo.bar=1"], ["foo", "unknown", "accepted: env, engine, ppo, policy, run"]),
    (["policy.image_features=0"], ["policy.image_features", "0", ">= 1"]),
    (["policy.obs_clip=0"], ["policy.obs_clip", "0", "> 0"]),
    # the sweep's other values (clear before; kept so that they stay clear)
    (["engine.num_envs=0"], ["engine.num_envs", ">= 1"]),
    (["engine.mode=fast"], ["engine.mode", "ver | nover | sync"]),
    (["ppo.clip=2"], ["ppo.clip", "0 < clip < 1"]),
    (["ppo.lr=-1"], ["ppo.lr", ">= 0"]),
    (["ppo.gamma=inf"], ["ppo.gamma", "inf"]),
    (["run.wandb=maybe"], ["run.wandb", "offline | online | disabled"]),
    (["run.total_steps=0"], ["run.total_steps", ">= 1"]),
    (["run.checkpoint_every=0"], ["run.checkpoint_every", ">= 1"]),
    (["run.dir="], ["run.dir", "non-empty"]),
    (["engine.num_envs=abc"], ["engine.num_envs", "abc"]),
    (["+engine.nmu_envs=2"], ["engine.nmu_envs", "did you mean engine.num_envs"]),
    (["skill=pick", "+skill.bogus=1"], ["bogus"]),
]


@pytest.mark.parametrize(
    ("overrides", "expected"), BAD_OVERRIDES, ids=[" ".join(o) for o, _ in BAD_OVERRIDES]
)
def test_bad_override_is_one_clear_config_error(
    tmp_path: Path, overrides: list[str], expected: list[str]
) -> None:
    with pytest.raises(ConfigError) as err:
        run(compose([*TINY, f"run.dir={tmp_path / 'run'}", *overrides]))
    message = str(err.value)
    assert "\n" not in message
    for part in expected:
        assert part in message, message
    assert not (tmp_path / "run" / "checkpoints").exists()  # nothing started


@pytest.mark.parametrize(
    ("override", "expected"),
    [
        ("+run.chekpoint_every=5", "run.checkpoint_every"),
        ("engine.num_envs=abc", "engine.num_envs='abc'"),
        pytest.param("engine=nope", "Available options in 'engine'", marks=pytest.mark.slow),
        pytest.param("ppo.value_coef=-1", "ppo.value_coef=-1.0", marks=pytest.mark.slow),
    ],
)
def test_cli_prints_one_line_and_exits_2(tmp_path: Path, override: str, expected: str) -> None:
    proc = cli([*TINY, f"run.dir={tmp_path / 'run'}", override])
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 2
    lines = [line for line in err.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("tpsrl-train: ") and expected in lines[0], err


@pytest.mark.slow  # the API's error: test_faults.py::test_run_dir_that_is_a_file_is_a_clear_error
def test_cli_run_dir_that_is_a_file(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("")
    proc = cli([*TINY, f"run.dir={tmp_path / 'f'}"])
    _, err = proc.communicate(timeout=240)
    assert proc.returncode == 2 and "is a file" in err and "Traceback" not in err, err
