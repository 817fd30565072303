"""Nav's knock rule (`skill.knock_dist`): an object moved away from where it lay ends the episode."""

from __future__ import annotations

import mujoco
import numpy as np
import pytest

from skills.registry import make_env


def _shove(env, handle: str, dx: float) -> None:
    """Moves `handle` dx metres along x, as a knock by the robot would (the test's stand-in)."""
    b = env.backend
    q = b._obj_q[b._handle_index[handle]]
    b.data.qpos[q] += dx
    mujoco.mj_forward(b.model, b.data)


def _still(env) -> np.ndarray:
    return np.zeros(env.action_space.shape, dtype=np.float32)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_an_object_moved_off_where_it_lay_ends_the_episode_with_the_penalty(seed: int) -> None:
    env = make_env("nav_to_obj", seed=seed, hold_prob=0.0, knock_dist=0.1, knock_penalty=2.0)
    env.reset(seed=seed)
    for _ in range(20):  # objects settling where they were spawned are no knock
        _, _, term, _, info = env.step(_still(env))
        assert not term
    handle = env.backend.spec.objects[-1].handle
    _shove(env, handle, 0.05)  # under knock_dist: nothing
    _, _, term, _, _ = env.step(_still(env))
    assert not term
    _shove(env, handle, 0.08)  # 0.13 m from where it lay
    _, reward, term, _, info = env.step(_still(env))
    stats = info["episode_stats"]
    assert term and stats["success"] == 0.0 and stats["fail/knocked"] == 1.0
    assert stats["return/knock"] == pytest.approx(-2.0)
    assert reward < -1.9


def test_without_the_rule_a_knock_goes_on_and_the_rule_refuses_negative_values() -> None:
    env = make_env("nav_to_obj", seed=0, hold_prob=0.0)  # knock_dist 0: HAB's nav
    env.reset(seed=0)
    _shove(env, env.backend.spec.objects[-1].handle, 0.5)
    _, _, term, _, _ = env.step(_still(env))
    assert not term
    for field in ("knock_dist", "knock_penalty"):
        with pytest.raises(ValueError, match=rf"skill.{field}: -0.1 must be >= 0"):
            make_env("nav_to_obj", **{field: -0.1})


def test_a_held_object_moves_with_the_robot_and_is_no_knock() -> None:
    env = make_env("nav_to_obj", seed=0, hold_prob=1.0, knock_dist=0.05, knock_penalty=1.0)
    env.reset(seed=0)
    assert env.backend.held is not None
    a = _still(env)
    a[0] = 1.0  # drive forward (or into furniture): the held object goes along
    for _ in range(30):
        _, _, term, _, info = env.step(a)
        if term:
            assert info["episode_stats"]["fail/knocked"] == 0.0
            break
