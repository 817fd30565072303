"""Place's clearance rule (`skill.clear_dist`): a place ends with the gripper clear of the goal."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from skills.config import task_fields
from skills.learned import load_skill_policy
from skills.registry import make_env


def _run(skill, clear: float, seed: int) -> list[tuple[bool, float]]:
    """(success, EE->goal distance) at each step of one held-out episode, `skill` acting."""
    env = make_env("place", **{**task_fields(skill.config), "clear_dist": clear, "split": "heldout"})
    obs, _ = env.reset(seed=seed)
    skill.reset(env)
    steps = []
    for _ in range(120):
        obs, _, term, trunc, info = env.step(skill.act(obs, env))
        steps.append((bool(term and info["episode_stats"]["success"]), info["ee_goal_dist"]))
        if term or trunc:
            break
    return steps


PLACE = "docs/results/runs/place_settled_s5/place.pt"
"""A place trained without the rule (an MLP of the eighteenth session): it often ends near its goal."""


def test_a_place_succeeds_only_with_the_gripper_clear_of_the_goal() -> None:
    skill = load_skill_policy(PLACE)
    held_back = 0
    for seed in range(10000, 10008):  # the evaluation's first held-out episodes
        free, clear = _run(skill, 0.0, seed), _run(skill, 0.25, seed)
        for ok, dist in clear:
            assert not ok or dist >= 0.25
        t = len(free) - 1
        if free[-1][0] and free[-1][1] < 0.25:  # succeeded near the goal: the rule holds the episode open
            held_back += 1
            assert len(clear) > t + 1 and not clear[t][0]
            assert clear[: t + 1] == free[:t] + [(False, free[t][1])]  # the same steps until then
    assert held_back >= 1


def test_a_chained_place_call_ends_only_clear_of_the_goal() -> None:
    skill = load_skill_policy(PLACE)
    assert skill.config.clear_dist == 0.0  # trained before the field: HAB's rule
    rest = {"relative_resting_position": np.zeros(3, np.float32), "is_holding": np.zeros(1, np.float32)}
    near = {**rest, "obj_goal_sensor": np.array([0.1, 0.1, 0.0], np.float32)}
    far = {**rest, "obj_goal_sensor": np.array([0.2, 0.2, 0.0], np.float32)}
    action = np.zeros(skill.action_dim, np.float32)
    assert skill._terminates(near, action, None)  # HAB's rule: released and at rest
    skill.config = replace(skill.config, clear_dist=0.25)
    assert not skill._terminates(near, action, None)
    assert skill._terminates(far, action, None)
    assert not skill._terminates({**far, "is_holding": np.ones(1, np.float32)}, action, None)


def test_clear_dist_refuses_a_negative_value() -> None:
    with pytest.raises(ValueError, match=r"skill.clear_dist: -0.1 must be >= 0"):
        make_env("place", clear_dist=-0.1)
