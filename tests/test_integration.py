"""Pieces working together: the VER engine trains on the simulator's gymnasium env in worker processes."""

from __future__ import annotations

from pathlib import Path

import gymnasium as gym

from tpsrl.engine.train import compose_config, train
from tpsrl.sim.env import RearrangeEnvFactory

SMALL = {"depth": {"height": 16, "width": 16}, "clutter": (0, 2), "max_steps": 12}


def test_engine_trains_on_the_simulator_in_worker_processes(tmp_path: Path) -> None:
    cfg = compose_config(
        [
            f"run.dir={tmp_path / 'run'}",
            "engine.num_envs=2",
            "engine.rollout_steps=16",
            "run.total_steps=96",
            "run.wandb=disabled",
            "run.progress=false",
            "policy.hidden_size=32",
            "engine.mode=ver",
        ]
    )
    result = train(cfg, env_factory=RearrangeEnvFactory(SMALL))
    assert result.counters.env_steps >= 96 and result.counters.updates >= 3
    last = result.history[-1]
    assert last["episode/count"] > 0 and last["episode/physics_unstable"] == 0.0  # episodes ended cleanly
    assert (tmp_path / "run" / "checkpoints").is_dir()


def test_gymnasium_module_id_form() -> None:
    env = gym.make("tpsrl.sim.gym_register:tpsrl/Rearrange-v0", config={**SMALL, "base_movement": False})
    obs, _ = env.reset(seed=0)
    assert env.action_space.shape == (9,) and obs["head_depth"].shape == (16, 16, 1)
    env.close()
