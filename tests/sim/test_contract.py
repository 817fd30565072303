"""Contract tests over every layout: reset, step, spaces, dtypes, no NaN; the gymnasium checker."""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from skills.registry import TASKS as SKILL_TASKS
from skills.registry import make_env
from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig, RearrangeEnv
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.objects import OBJECT_TYPES
from tpsrl.sim.task import TASKS


@pytest.mark.parametrize("layout", range(L.NUM_LAYOUTS))
def test_reset_and_step_every_layout(layout: int) -> None:
    env = RearrangeEnv(
        EnvConfig(n_targets=2, clutter=(0, 6), layouts=(layout,), depth=DepthSettings(height=16, width=16))
    )
    obs, info = env.reset(seed=layout)
    assert info["layout"] == layout
    rng = np.random.default_rng(layout)
    for _ in range(5):
        a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        a[-1] = -1.0
        obs, reward, term, trunc, info = env.step(a)
        assert isinstance(reward, float) and np.isfinite(reward)
        assert not info.get("physics_unstable", False)
    assert set(obs) == set(env.observation_space.spaces)
    for k, v in obs.items():
        space = env.observation_space[k]
        assert v.shape == space.shape and v.dtype == space.dtype, k
        assert np.isfinite(v).all(), k
        assert space.contains(v), k


def test_object_catalogue_has_ycb_like_types() -> None:
    assert len(OBJECT_TYPES) >= 10
    for name in (
        "cracker_box",
        "sugar_box",
        "tomato_soup_can",
        "mustard_bottle",
        "bowl",
        "mug",
        "apple",
        "banana",
    ):
        t = OBJECT_TYPES[name]
        assert 0.02 < t.mass < 1.0 and all(0.005 < s < 0.2 for s in t.size)


@pytest.mark.parametrize("name", sorted(TASKS) + sorted(SKILL_TASKS))
def test_every_registered_task_resets_and_steps(name: str) -> None:
    env = RearrangeEnv(task=TASKS[name]()) if name in TASKS else make_env(name, seed=0, max_steps=10)
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    for _ in range(10):
        obs, reward, term, trunc, info = env.step(
            rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        )
        assert np.isfinite(reward) and all(np.isfinite(v).all() for v in obs.values())
        assert env.observation_space.contains(obs)
        if term or trunc:
            assert "success" in info["episode_stats"]
            break
    env.close()


def test_clutter_varies_between_episodes() -> None:
    env = RearrangeEnv(EnvConfig(n_targets=2, clutter=(0, 6), depth=DepthSettings(height=16, width=16)))
    counts = set()
    for seed in range(8):
        env.reset(seed=seed)
        counts.add(len(env.backend.spec.objects))
    assert len(counts) > 1


def test_gymnasium_env_checker() -> None:
    e = RearrangeEnv(EnvConfig(depth=DepthSettings(height=8, width=8), clutter=(0, 2)))
    check_env(e, skip_render_check=True)
    e.close()
