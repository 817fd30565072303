"""Scripted skill controllers: interface, registry, action layout, and success on a few episodes."""

from __future__ import annotations

import numpy as np
import pytest

from skills.policy import ActionLayout, SkillPolicy
from skills.scripted import SCRIPTED, make_scripted
from skills.scripted.envs import SKILLS, make_skill_env, rollout


def test_every_skill_has_a_scripted_controller_implementing_the_protocol() -> None:
    assert set(SCRIPTED) == set(SKILLS)
    for name, cls in SCRIPTED.items():
        p = cls()
        assert isinstance(p, SkillPolicy) and p.skill == name


def test_unknown_scripted_skill_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown scripted skill 'fly'.*pick"):
        make_scripted("fly")


def test_action_layout_drops_missing_components() -> None:
    lay = ActionLayout(("arm_action", "grip_action", "rearrange_stop"))
    a = lay.make(arm=np.full(7, 2.0), grip=1.0, base=np.ones(2), stop=True)
    assert a.shape == (9,) and not lay.has_base
    assert np.allclose(a[:7], 1.0) and a[7] == 1.0 and a[8] == 1.0
    with pytest.raises(ValueError, match="unknown.*accepted"):
        ActionLayout(("jump",))


@pytest.mark.parametrize("skill", ["pick", "nav_to_obj"])
def test_scripted_skill_succeeds_on_most_episodes(skill: str) -> None:
    env = make_skill_env(skill)
    outs = [rollout(env, make_scripted(skill), seed=s) for s in range(3)]
    assert sum(o.success for o in outs) >= 2, [(o.layout, o.steps) for o in outs]
    assert all(o.steps <= env.cfg.max_steps for o in outs)


def test_scripted_pick_without_base_emits_arm_and_grip_only() -> None:
    env = make_skill_env("pick", base_movement=False)
    p = make_scripted("pick")
    obs, _ = env.reset(seed=0)
    p.reset(env)
    for _ in range(5):
        a = p.act(obs, env)
        assert env.action_space.contains(a)
        obs, *_ = env.step(a)


def test_act_before_reset_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="before reset"):
        make_scripted("place").act({}, None)
