"""The execution monitor: effects checked after each skill, replanning after injected failures."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from planner.domain import Domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import Fact, GroundAction, NoPlan, PlanResult, fact
from planner.monitor import ExecutionMonitor, MonitorStatus, execute
from planner.problem import Problem, ProblemError, observed_state, problem_from_episode
from planner.scenarios import get_scenario
from planner.search import plan

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


def test_observe_that_raises_can_be_retried_without_recording_twice(nav_domain: Domain) -> None:
    problem = _problem("tidy_house")
    world = FakeWorld(problem)
    monitor = ExecutionMonitor(problem, nav_domain)
    first = monitor.next_action
    facts = world(first)
    with pytest.raises(ProblemError, match="unknown object 'banana'"):
        monitor.observe([*facts, ("holding", "banana")])
    with pytest.raises(ProblemError, match="physically impossible"):
        monitor.observe([*facts, ("opened", "fridge")])  # the fridge is also observed closed
    assert monitor.executed == [] and monitor.next_action == first
    assert monitor.observe(facts) is None
    assert monitor.executed == [first]


def test_planner_that_raises_during_a_replan_leaves_the_monitor_unchanged(nav_domain: Domain) -> None:
    problem = _problem("tidy_house")
    calls = {"n": 0}

    def flaky(p: Problem, d: Domain) -> PlanResult:
        calls["n"] += 1
        if calls["n"] == 2:  # the first replan
            raise RuntimeError("planner crashed")
        return plan(p, d)

    monitor = ExecutionMonitor(problem, nav_domain, planner=flaky)
    world = FakeWorld(problem)
    facts = [f for f in world(monitor.next_action) if f[0] != "robot_at"]  # the nav did not arrive
    with pytest.raises(RuntimeError, match="crashed"):
        monitor.observe(facts)
    assert monitor.executed == [] and monitor.failures == []
    failure = monitor.observe(facts)
    assert failure is not None and failure.step == 0
    assert len(monitor.executed) == 1 and len(monitor.failures) == 1 and monitor.replans == 1


def test_half_open_fridge_is_named_with_the_skill_that_fixes_it(nav_domain: Domain) -> None:
    problem = _problem("set_table")

    def stuck_half_open(call: int, action: GroundAction, facts: set[Fact]) -> None:
        if action.name == "open_fridge":
            facts.discard(fact("opened", "fridge"))

    monitor = execute(problem, nav_domain, FakeWorld(problem, stuck_half_open), max_replans=1)
    failure = next(f for f in monitor.failures if f.action.name == "open_fridge")
    assert failure.missing == (fact("opened", "fridge"),)
    assert "fridge is half open (neither opened nor closed)" in failure.reason
    assert monitor.status is MonitorStatus.NO_PLAN
    assert monitor.no_plan is not None and monitor.no_plan.half_open == ("fridge",)
    assert "fridge is half open" in monitor.no_plan.reason
    assert "running open_fridge (to make it opened) would make the goal reachable" in monitor.no_plan.reason


def test_half_open_door_that_must_end_closed_suggests_closing(nav_domain: Domain) -> None:
    episode = Episode(
        objects=(ObjectSpec("apple", goal="table"),),
        goals=(GoalSpec("table"),),
        receptacles=(ReceptacleSpec("fridge", "fridge"),),
        final_states=(("fridge", "closed"),),
    )
    problem = problem_from_episode(episode)
    state = observed_state(problem, nav_domain, [])  # neither opened nor closed
    result = plan(problem.with_init(state), nav_domain)
    assert isinstance(result, NoPlan) and result.half_open == ("fridge",)
    assert "running close_fridge (to make it closed)" in result.reason
    assert result.unreachable == (fact("closed", "fridge"),)


def test_irrelevant_half_open_fridge_does_not_block(nav_domain: Domain) -> None:
    problem = _problem("tidy_house")  # the drawer holds object_0; the fridge is not involved
    facts = [f.to_tuple() for f in problem.init if f != fact("closed", "fridge")]
    state = observed_state(
        problem, nav_domain, [f for f in facts if f[0] not in ("hand_empty", "on_surface")]
    )
    assert len(plan(problem.with_init(state), nav_domain)) == 20
