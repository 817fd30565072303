"""The symbolic layer of TP-SRL: a PDDL task planner over plain facts (it never touches a simulator).

Typical use::

    from planner import builtin_domain, problem_from_episode, plan, get_scenario, skill_call

    domain = builtin_domain("rearrange")            # or "rearrange_nonav" for the NoNav ablation
    problem = problem_from_episode(get_scenario("set_table"))
    result = plan(problem, domain)                  # Plan (optimal) or NoPlan (says which goals fail)
    calls = [skill_call(a) for a in result.actions]

See docs/planner.md.
"""

from planner.consistency import Contradiction
from planner.diagnose import half_open
from planner.domain import Domain, PddlError, builtin_domain, load_domain
from planner.episode import Episode, EpisodeError, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import (
    Fact,
    GroundAction,
    InvalidPlanError,
    NoPlan,
    Plan,
    State,
    fact,
    simulate,
    state_from,
)
from planner.monitor import ExecutionMonitor, MonitorStatus, StepFailure, execute
from planner.names import NameMap
from planner.problem import (
    InconsistentStateError,
    Problem,
    ProblemError,
    load_problem,
    observed_state,
    problem_from_episode,
    problem_from_facts,
    write_problem,
)
from planner.scenarios import REFERENCE_PLAN_LENGTHS, SCENARIOS, get_scenario
from planner.search import plan
from planner.skills import SkillCall, skill_call

__all__ = [
    "REFERENCE_PLAN_LENGTHS",
    "SCENARIOS",
    "Contradiction",
    "Domain",
    "Episode",
    "EpisodeError",
    "ExecutionMonitor",
    "Fact",
    "GoalSpec",
    "GroundAction",
    "InconsistentStateError",
    "InvalidPlanError",
    "MonitorStatus",
    "NameMap",
    "NoPlan",
    "ObjectSpec",
    "PddlError",
    "Plan",
    "Problem",
    "ProblemError",
    "ReceptacleSpec",
    "SkillCall",
    "State",
    "StepFailure",
    "builtin_domain",
    "execute",
    "fact",
    "get_scenario",
    "half_open",
    "load_domain",
    "load_problem",
    "observed_state",
    "plan",
    "problem_from_episode",
    "problem_from_facts",
    "simulate",
    "skill_call",
    "state_from",
    "write_problem",
]
