"""TP-SPA within HAB's skill step limits (issue 10): scripted pick and place finish a call in 200 steps.

One Tidy House episode with the reference chain settings (skill 200, nav 300, reset-arm 50 steps): the
plan runs to full success, every pick call ends by its own termination, and at most one place call
(a high shelf: the arm is slow to get back to rest after it) runs into the limit.
"""

from __future__ import annotations

from evaluation.agent import AgentConfig, HierarchicalAgent, make_episode_env
from evaluation.episodes import generate_episodes
from evaluation.policies import skill_sources


def test_tidy_house_episode_succeeds_within_the_reference_step_limits() -> None:
    cfg = AgentConfig()
    assert (cfg.skill_steps, cfg.nav_steps, cfg.reset_arm_steps) == (200, 300, 50)  # hab-reference
    spec = generate_episodes("tidy_house", 2, seed=0)[1]
    r = HierarchicalAgent("tp_spa", skill_sources("tp_spa"), cfg).run(
        make_episode_env(), spec, "tidy_house", 1
    )
    assert r.full_success, (r.failed_skill, r.failure, r.failure_detail)
    calls = [(s.skill, s.target, s.steps, s.done) for s in r.skills if s.skill in ("pick", "place")]
    assert len(calls) == 10
    assert all(done for skill, _, _, done in calls if skill == "pick"), calls
    assert sum(not done for _, _, _, done in calls) <= 1, calls
    assert not any(s.knocked for s in r.skills)
