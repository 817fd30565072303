"""Open/close skills observe the articulation's joint state; skills shipped before that still load."""

from __future__ import annotations

import numpy as np

from skills.learned import load_skill_policy
from skills.policy import ActionLayout
from skills.registry import make_env


def test_the_fridge_skills_observe_the_door_angle() -> None:
    obs, _ = make_env("open_fridge", seed=0).reset(seed=1)
    assert obs["marker_js_no_vel"].shape == (1,) and abs(float(obs["marker_js_no_vel"][0])) < 0.01  # closed
    env = make_env("close_fridge", seed=0)
    obs, _ = env.reset(seed=1)
    assert np.pi / 4 - 0.01 < float(obs["marker_js_no_vel"][0]) < 2 * np.pi / 3 + 0.01  # HAB's open start
    a = np.zeros(env.action_space.shape, np.float32)
    a[ActionLayout.of(env).slices["rearrange_stop"]] = -1.0
    obs, *_ = env.step(a)
    assert obs["marker_js_no_vel"][0] == np.float32(env.backend.articulation("fridge"))


def test_close_drawer_starts_open_and_says_so() -> None:
    env = make_env("close_drawer", seed=0)
    obs, _ = env.reset(seed=2)
    assert 0.35 < float(obs["marker_js_no_vel"][0]) < 0.55  # HAB: starts open U(0.4, 0.5) m


def test_skills_trained_without_it_keep_their_observations() -> None:
    # The close_drawer shipped until 2026-11-24 (eighth session), trained before the sensor existed.
    skill = load_skill_policy("docs/results/runs/close_drawer_base")
    assert skill.config.joint_state_obs is False
    env = make_env("close_drawer", **{k: v for k, v in vars(skill.config).items() if k != "split"})
    obs, _ = env.reset(seed=0)
    assert "marker_js_no_vel" not in obs
    env.step(skill.act(obs, env))  # the policy's input space still matches
