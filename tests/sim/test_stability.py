"""Random actions over random layouts never make the physics explode (fast sample; long run is `slow`)."""

from __future__ import annotations

import numpy as np
import pytest

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig, RearrangeEnv


def _unstable_steps(seed: int, steps: int) -> int:
    env = RearrangeEnv(
        EnvConfig(
            depth=DepthSettings(mode="none"),
            observations=("joint", "is_holding"),
            clutter=(10, 10),
            max_steps=300,
        )
    )
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    bad = 0
    for _ in range(steps):
        a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        a[-1] = -1.0
        _, _, term, trunc, info = env.step(a)
        bad += bool(info.get("physics_unstable"))
        if term or trunc:
            env.reset()
    env.close()
    return bad


def test_random_actions_stay_stable() -> None:
    assert _unstable_steps(0, 1500) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_actions_stay_stable_long(seed: int) -> None:
    assert _unstable_steps(seed, 10_000) == 0
