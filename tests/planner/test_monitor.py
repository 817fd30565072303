"""The execution monitor: effects checked after each skill, replanning after injected failures."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from planner.domain import Domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import Fact, GroundAction, fact
from planner.monitor import ExecutionMonitor, MonitorStatus, execute
from planner.problem import Problem, problem_from_episode
from planner.scenarios import get_scenario

# Facts a simulator does not report: the planner derives them (hand_empty, on_surface) or knows them
# from the episode (goal positions).
_NOT_OBSERVED = {"hand_empty", "on_surface", "surface_goal", "goal_in"}

Injection = Callable[[int, GroundAction, set[Fact]], None]


class FakeWorld:
    """Applies each action to a symbolic world, then lets a test tamper with it; reports sim-style facts."""

    def __init__(self, problem: Problem, inject: Injection | None = None) -> None:
        self.facts = set(problem.init)
        self.inject = inject
        self.calls = 0

    def __call__(self, action: GroundAction) -> list[tuple[str, ...]]:
        if action.applicable(frozenset(self.facts)):
            self.facts = set(action.apply(frozenset(self.facts)))
        if self.inject is not None:
            self.inject(self.calls, action, self.facts)
        self.calls += 1
        return [f.to_tuple() for f in self.facts if f.predicate not in _NOT_OBSERVED]


def _problem(name: str) -> Problem:
    return problem_from_episode(get_scenario(name, n_distractors=10))


@pytest.mark.parametrize("domain_name", ["nav_domain", "nonav_domain"])
def test_faithful_execution_follows_the_plan(domain_name: str, request: pytest.FixtureRequest) -> None:
    domain = request.getfixturevalue(domain_name)
    problem = _problem("set_table")
    monitor = ExecutionMonitor(problem, domain)
    planned = monitor.remaining
    done = execute(problem, domain, FakeWorld(problem))
    assert done.status is MonitorStatus.SUCCEEDED
    assert done.failures == [] and done.replans == 0
    assert tuple(done.executed) == planned


def test_object_dropped_after_pick_is_picked_again(nav_domain: Domain) -> None:
    problem = _problem("tidy_house")

    def drop(call: int, action: GroundAction, facts: set[Fact]) -> None:
        if call == 1:  # the first pick: the object slips back onto the floor
            obj = action.args[0]
            facts.discard(fact("holding", obj))
            facts |= {fact("hand_empty"), fact("on_surface", obj)}

    world = FakeWorld(problem, drop)
    monitor = ExecutionMonitor(problem, nav_domain)
    monitor.observe(world(monitor.next_action))
    picked = monitor.next_action
    failure = monitor.observe(world(picked))
    assert failure is not None and failure.step == 1 and failure.action == picked
    assert failure.missing == (fact("holding", picked.args[0]),)
    assert "not observed" in failure.reason
    # The robot is still next to the object, so the new plan picks it again straight away.
    again = monitor.next_action
    assert again is not None and again.name == "pick" and again.args[0] == picked.args[0]
    assert len(monitor.remaining) == 19
    while (action := monitor.next_action) is not None:
        monitor.observe(world(action))
    assert monitor.status is MonitorStatus.SUCCEEDED and monitor.replans == 1
    assert len(monitor.executed) == 21


def test_fridge_found_closed_is_opened_before_use(nav_domain: Domain) -> None:
    problem = _problem("prepare_groceries")  # the episode says the fridge starts open

    def close_fridge(call: int, action: GroundAction, facts: set[Fact]) -> None:
        if call == 0:
            facts.discard(fact("opened", "fridge"))
            facts.add(fact("closed", "fridge"))

    monitor = execute(problem, nav_domain, FakeWorld(problem, close_fridge))
    assert monitor.status is MonitorStatus.SUCCEEDED
    assert len(monitor.failures) == 1 and monitor.replans == 1
    failure = monitor.failures[0]
    assert failure.step == 0 and failure.missing == () and failure.blocked == (fact("opened", "fridge"),)
    assert "can no longer run" in failure.reason
    executed = [str(a) for a in monitor.executed]
    assert "open_fridge(fridge)" in executed
    # The replanned route reaches the fridge, opens it, and only then takes anything out of it.
    assert executed.index("open_fridge(fridge)") < executed.index("pick_from(apple, fridge)")
    # One wasted nav (to the apple, before the closed fridge was seen), then nav to the fridge and open it.
    assert len(monitor.executed) == 12 + 3


def test_retry_budget_is_enforced(nav_domain: Domain) -> None:
    problem = _problem("tidy_house")

    def always_drop(call: int, action: GroundAction, facts: set[Fact]) -> None:
        if action.name == "pick":
            facts.discard(fact("holding", action.args[0]))
            facts |= {fact("hand_empty"), fact("on_surface", action.args[0])}

    monitor = execute(problem, nav_domain, FakeWorld(problem, always_drop), max_replans=2)
    assert monitor.status is MonitorStatus.OUT_OF_RETRIES
    assert len(monitor.failures) == 3 and monitor.replans == 2
    assert all(f.action.name == "pick" for f in monitor.failures)
    assert monitor.next_action is None
    with pytest.raises(RuntimeError, match="out_of_retries"):
        monitor.observe([])


def test_unsolvable_problem_reports_no_plan(nav_domain: Domain) -> None:
    episode = Episode(
        objects=(ObjectSpec("apple"),),
        goals=(GoalSpec("table"),),
        receptacles=(ReceptacleSpec("d", "drawer"),),
    )
    problem = problem_from_episode(episode)
    problem = Problem("p", problem.objects, problem.init, frozenset({fact("in", "apple", "d")}))
    monitor = ExecutionMonitor(problem, nav_domain)
    assert monitor.status is MonitorStatus.NO_PLAN and monitor.next_action is None
    assert monitor.no_plan is not None and monitor.no_plan.unreachable == (fact("in", "apple", "d"),)
