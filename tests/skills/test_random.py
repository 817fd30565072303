"""Random actions (almost) never succeed: the success rules cannot be met by accident."""

from __future__ import annotations

import numpy as np
import pytest

from skills.registry import TASKS, make_env


def _random_success(skill: str, episodes: int, max_steps: int | None) -> float:
    env = make_env(skill, seed=0, **({"max_steps": max_steps} if max_steps else {}))
    rng = np.random.default_rng(0)
    wins = 0
    env.reset(seed=0)
    for _ in range(episodes):
        while True:
            _, _, term, trunc, info = env.step(rng.uniform(-1, 1, env.action_space.shape).astype(np.float32))
            if term or trunc:
                wins += info["episode_stats"]["success"] > 0
                env.reset()
                break
    env.close()
    return wins / episodes


@pytest.mark.parametrize("skill", sorted(TASKS))
def test_random_actions_rarely_succeed(skill: str) -> None:
    assert _random_success(skill, episodes=24, max_steps=60) <= 1 / 24


@pytest.mark.slow
@pytest.mark.parametrize("skill", sorted(TASKS))
def test_random_actions_rarely_succeed_full_episodes(skill: str) -> None:
    assert _random_success(skill, episodes=50, max_steps=None) <= 0.04
