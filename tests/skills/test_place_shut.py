"""Place's shut rule (`skill.shut_tol`, not HAB's): a goal's drawer or fridge door pushed shut ends the episode."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from skills.registry import make_env


def _drawer_episode(
    shut_tol: float, closed_to: float | None, **fields: object
) -> tuple[list[tuple[dict, dict]], float]:
    """A held-out place with its goal in the open top drawer; the robot idles 5 steps, then (where `closed_to`
    is given) the drawer is set that share of its opening toward closed and the robot idles on. The
    episode's (info, observations) at each step, and the drawer's opening at the start."""
    env = make_env(
        "place", seed=0, split="heldout", goal_receptacles=("drawer_0",), shut_tol=shut_tol, **fields
    )
    env.reset(seed=10000)
    b = env.backend
    assert env.unwrapped.task.shut_joint == "drawer_0"
    opening = b.articulation("drawer_0")
    action = np.zeros(env.action_space.shape, np.float32)
    action[env._slices["grip_action"]] = 1.0  # keep holding
    steps = []
    for k in range(12):
        if k == 5 and closed_to is not None:
            b.data.qpos[b.model.joint("drawer_0").qposadr[0]] = opening * (1.0 - closed_to)
            b.data.qvel[:] = 0.0
            mujoco.mj_forward(b.model, b.data)
        obs, _, term, trunc, info = env.step(action)
        steps.append((info, obs))
        if term or trunc:
            break
    env.close()
    return steps, opening


def test_a_drawer_pushed_shut_past_the_tolerance_ends_the_episode_with_the_drop_penalty() -> None:
    steps, opening = _drawer_episode(0.25, 0.5)
    assert opening > 0.3
    infos = [info for info, _ in steps]
    assert len(infos) == 6  # the step after the push
    stats = infos[-1]["episode_stats"]
    assert stats["fail/shut"] == 1.0 and stats["success"] == 0.0
    assert infos[-1]["reward_terms"]["drop"] < 0.0
    assert all("episode_stats" not in i for i in infos[:-1])


@pytest.mark.parametrize(("shut_tol", "closed_to"), [(0.25, 0.1), (0.0, 0.5), (0.25, None)])
def test_a_drawer_pushed_less_or_without_the_rule_runs_on(shut_tol: float, closed_to: float | None) -> None:
    steps, _ = _drawer_episode(shut_tol, closed_to)
    assert len(steps) == 12 and all("episode_stats" not in info for info, _ in steps)


def test_shut_tol_outside_0_1_is_refused_naming_the_field() -> None:
    with pytest.raises(ValueError, match=r"skill.shut_tol: 1.0 must be in \[0, 1\)"):
        make_env("place", shut_tol=1.0)


def test_the_shift_sensor_reads_the_share_of_the_opening_pushed_shut() -> None:
    steps, _ = _drawer_episode(0.0, 0.5, shift_sensor=True)
    shifts = [float(obs["goal_receptacle_shift"][0]) for _, obs in steps]
    assert all(abs(s) < 0.02 for s in shifts[:5])  # the drawer stays where it was
    assert all(s == pytest.approx(0.5, abs=0.03) for s in shifts[5:])  # half its opening pushed in
    env = make_env("place", split="heldout", goal_receptacles=("dining_table",), shift_sensor=True)
    obs, _ = env.reset(seed=10000)
    assert obs["goal_receptacle_shift"].tolist() == [0.0]  # a goal on an open surface
    env.close()
