"""Sample Factory on the engine benchmark's env (optional comparison for `tpsrl-bench engine`).

Run by the benchmark as `python bench_sf.py '<json step times>' <rollout> <envs per worker> <splits>` with an
interpreter that has `sample-factory` installed (a benchmark-only dependency; see docs/engine.md). It
trains until stopped; the benchmark reads Sample Factory's own "Fps is (10 sec: X" log lines. Same env
(SleepyEnv), same per-env step times, a 2-layer LSTM of the same size, APPO (asynchronous). With several
envs per worker and `worker_num_splits=2`, Sample Factory's double-buffered sampling steps one half of a
worker's envs while the other half waits for actions (its recommended configuration).
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
from typing import Any

import gymnasium as gym
import numpy as np

from tpsrl.engine.synthetic import SleepyEnv


def means() -> list[float]:
    # via the environment: Sample Factory starts its workers with `spawn`
    return json.loads(os.environ["TPSRL_SF_MEANS"])


class FlatSleepy(gym.Wrapper):
    """SleepyEnv with its single Box observation (Sample Factory wraps Box as {"obs": ...} itself)."""

    def __init__(self, env: SleepyEnv) -> None:
        super().__init__(env)
        self.observation_space = env.observation_space["state"]

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict]:
        obs, info = self.env.reset(**kwargs)
        return obs["state"], info

    def step(self, action: np.ndarray) -> tuple:
        obs, r, term, trunc, info = self.env.step(action)
        return obs["state"], r, term, trunc, info


def make_env(full_env_name: str, cfg: Any = None, env_config: Any = None, render_mode: Any = None) -> gym.Env:
    env_id = int(env_config.env_id) if env_config is not None else 0
    m = means()
    return FlatSleepy(SleepyEnv(m[env_id % len(m)]))


def main() -> int:
    """Trains until killed; the caller reads the FPS lines from the log and stops the process group."""
    from sample_factory.cfg.arguments import parse_full_cfg, parse_sf_args
    from sample_factory.envs.env_utils import register_env
    from sample_factory.train import run_rl

    os.environ["TPSRL_SF_MEANS"] = sys.argv[1]
    rollout, n = int(sys.argv[2]), len(means())
    per_worker, splits = (int(x) for x in sys.argv[3:5]) if len(sys.argv) >= 5 else (1, 1)
    register_env("tpsrl_sleepy", make_env)
    with tempfile.TemporaryDirectory() as tmp:
        argv = [
            "--env=tpsrl_sleepy",
            "--algo=APPO",
            f"--train_dir={tmp}",
            "--experiment=sf",
            "--device=cpu",
            f"--num_workers={n // per_worker}",
            f"--num_envs_per_worker={per_worker}",
            f"--worker_num_splits={splits}",
            f"--rollout={rollout}",
            f"--batch_size={rollout * n}",
            "--num_batches_per_epoch=1",
            "--num_epochs=2",
            "--use_rnn=True",
            "--rnn_type=lstm",
            "--rnn_num_layers=2",
            "--rnn_size=32",
            "--encoder_mlp_layers",
            "32",
            "32",
            "--train_for_env_steps=10000000000",
            "--save_every_sec=100000",
            "--with_wandb=False",
            "--decorrelate_envs_on_one_worker=False",
            "--restart_behavior=overwrite",
            "--recurrence=-1",
        ]
        parser, _ = parse_sf_args(argv)
        run_rl(parse_full_cfg(parser, argv))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
