"""The hierarchical agent: skill views match each skill task's spaces; a short scripted HAB episode runs."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation.agent import AgentConfig, HierarchicalAgent, make_episode_env
from evaluation.episodes import generate_episodes
from evaluation.grounding import ground_episode
from evaluation.policies import skill_sources
from evaluation.skillview import SkillView, call_spec, full_action, skill_env_config
from planner import plan
from skills.policy import ActionLayout
from skills.registry import make_env


@pytest.fixture(scope="module")
def set_table():
    env = make_episode_env()
    spec = generate_episodes("set_table", 1, seed=0)[0]
    env.reset(options={"episode": spec})
    g = ground_episode(spec, "rearrange", articulations=env.backend.rules().articulations)
    return env, spec, [g.skill_call(a) for a in plan(g.problem_from(env.backend), g.domain).actions]


def test_views_have_each_skill_tasks_spaces(set_table):
    env, spec, calls = set_table
    assert [c.skill for c in calls][:2] == ["nav_to_obj", "open_drawer"]
    for call in calls:
        for base in (True, False) if call.skill != "nav_to_obj" else (True,):
            view = SkillView(
                env, call.skill, skill_env_config(call.skill, base, 0), call_spec(spec, call, env.backend)
            )
            own = make_env(call.skill, base_movement=base)
            assert view.action_space.shape == own.action_space.shape
            obs = view.observe()
            assert set(obs) == set(own.observation_space.spaces)
            assert all(obs[k].shape == own.observation_space[k].shape for k in obs)


def test_call_spec_targets(set_table):
    env, spec, calls = set_table
    nav_drawer, open_drawer = calls[0], calls[1]
    assert call_spec(spec, nav_drawer, env.backend).nav_goal is not None
    assert call_spec(spec, open_drawer, env.backend).marker == "drawer_0"
    pick = next(c for c in calls if c.skill == "pick")
    assert call_spec(spec, pick, env.backend).targets[0].handle == pick.target


def test_full_action_keeps_grip_and_never_stops(set_table):
    env, spec, calls = set_table
    view = SkillView(
        env, "nav_to_obj", skill_env_config("nav_to_obj", True, 0), call_spec(spec, calls[0], env.backend)
    )
    full = ActionLayout.of(env)
    a = full_action(view, np.array([0.5, -0.25, 1.0]), full, held=True)
    assert np.allclose(a[full.slices["base_velocity"]], [0.5, -0.25])
    assert a[full.slices["grip_action"]][0] == 1.0 and a[full.slices["rearrange_stop"]][0] < 0
    assert np.allclose(a[full.slices["arm_action"]], 0.0)


def test_scripted_episode_reaches_first_stages():
    spec = generate_episodes("set_table", 1, seed=0)[0]
    agent = HierarchicalAgent("tp_spa", skill_sources("tp_spa"), AgentConfig(skill_steps=300))
    r = agent.run(make_episode_env(), spec, "set_table", 0)
    assert r.stage_names[:2] == ["open_drawer_0", "pick_1"] and r.stage_success[0]
    assert r.plan_length == 12 and r.steps > 0 and r.skills[0].skill == "nav_to_obj"
    assert r.full_success or r.failure is not None  # a failure is always attributed


def test_an_end_effector_skill_acts_through_the_ik(set_table):
    env, spec, calls = set_table
    pick = next(c for c in calls if c.skill == "pick")
    view = SkillView(env, "pick", skill_env_config("pick", True, 0, "ee"), call_spec(spec, pick, env.backend))
    assert view.action_space.shape == make_env("pick", arm_control="ee").action_space.shape == (6,)
    full = ActionLayout.of(env)
    up = full_action(view, np.array([0.0, 0.0, 1.0, 1.0, 0.0, 0.0]), full, held=False)
    arm = up[full.slices["arm_action"]]
    assert np.abs(arm).max() > 0.1  # joint deltas from the IK, not a still arm
    assert np.allclose(arm, env.backend.ee_arm_action(np.array([0.0, 0.0, 1.0])))


def test_a_retried_call_samples_its_actions():
    """chain.sample_retries: a call repeating one that failed acts stochastically (with chain.noise_scale
    times the skill's std); first calls on the mean."""
    spec = generate_episodes("tidy_house", 1, seed=0)[0]
    cfg = AgentConfig(
        skill_steps=3, nav_steps=3, reset_arm_steps=1, max_replans=2, sample_retries=True, noise_scale=0.5
    )
    agent = HierarchicalAgent("tp_srl", skill_sources("tp_srl"), cfg)
    seen: list[tuple[str, bool]] = []
    original = HierarchicalAgent._policy

    def watched(self, skill):
        policy, env_cfg = original(self, skill)
        if not hasattr(policy, "_reset"):
            policy._reset = policy.reset

            def reset(view, p=policy):
                seen.append((skill, p.runner.deterministic))
                assert p.runner.noise_scale == 0.5
                return p._reset(view)

            policy.reset = reset
        return policy, env_cfg

    agent._policy = watched.__get__(agent)
    r = agent.run(make_episode_env(16), spec, "tidy_house", 0)
    targets = [s.target for s in r.skills]
    assert len(seen) == len(targets) >= 3  # 3-step calls fail, and the monitor replans them
    for k, (target, (_, deterministic)) in enumerate(zip(targets, seen, strict=True)):
        retry = any(t == target and s.failure for t, s in zip(targets[:k], r.skills[:k], strict=True))
        assert deterministic == (not retry), (k, target)
    assert not all(d for _, d in seen)  # some call was a retry


@pytest.mark.parametrize("reapproach", [True, False])
def test_a_retried_call_is_preceded_by_a_nav_to_its_entity(reapproach: bool):
    """chain.reapproach_retries: a pick or place that repeats a failed one runs after a nav to the object
    (pick) or goal (place) it needs the robot at; first calls follow the plan's own navs."""
    spec = generate_episodes("tidy_house", 1, seed=0)[0]
    cfg = AgentConfig(
        skill_steps=3, nav_steps=3, reset_arm_steps=1, max_replans=3, reapproach_retries=reapproach
    )
    r = HierarchicalAgent("tp_spa", skill_sources("tp_spa"), cfg).run(
        make_episode_env(), spec, "tidy_house", 0
    )
    retries = 0
    for k, s in enumerate(r.skills):
        if s.skill == "nav_to_obj" or not any(t.target == s.target and t.failure for t in r.skills[:k]):
            continue
        retries += 1
        entity = (
            s.target.split("(")[1].rstrip(")").split(", ")[-1]
        )  # pick(obj) -> obj, place(obj, goal) -> goal
        preceded = k > 0 and r.skills[k - 1].target == f"nav_to_obj({entity})"
        assert preceded == reapproach, (k, s.target, [t.target for t in r.skills[: k + 1]])
    assert retries >= 2
