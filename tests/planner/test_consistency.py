"""Contradictory initial or observed states are refused, naming the facts that cannot hold together."""

from __future__ import annotations

import pytest

from planner.domain import Domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import fact
from planner.problem import (
    InconsistentStateError,
    Problem,
    observed_state,
    problem_from_episode,
    problem_from_facts,
)
from planner.search import plan

EPISODE = Episode(
    objects=(ObjectSpec("apple", goal="table"), ObjectSpec("mug", start="drawer_0")),
    goals=(GoalSpec("table"),),
    receptacles=(ReceptacleSpec("fridge", "fridge"), ReceptacleSpec("drawer_0", "drawer")),
)
OBJECTS = problem_from_episode(EPISODE).objects

CONTRADICTIONS = {
    "door opened and closed": (
        [("opened", "fridge"), ("closed", "fridge")],
        r"\(closed fridge\) and \(opened fridge\): a receptacle is opened, closed or neither",
    ),
    "holding with an empty hand": (
        [("holding", "apple"), ("hand_empty",)],
        r"\(hand_empty\) and \(holding apple\): the hand is empty or holds an object",
    ),
    "holding two objects": (
        [("holding", "apple"), ("holding", "mug")],
        r"\(holding apple\) and \(holding mug\): the robot holds at most one object",
    ),
    "in the drawer and on a surface": (
        [("in", "mug", "drawer_0"), ("on_surface", "mug")],
        r"\(in mug drawer_0\) and \(on_surface mug\): an object is held, in one receptacle or on a surface",
    ),
    "in two receptacles": (
        [("in", "mug", "drawer_0"), ("in", "mug", "fridge")],
        r"\(in mug drawer_0\) and \(in mug fridge\)",
    ),
    "held and in a receptacle": (
        [("holding", "mug"), ("in", "mug", "drawer_0")],
        r"\(holding mug\) and \(in mug",
    ),
}


@pytest.mark.parametrize("case", sorted(CONTRADICTIONS))
def test_contradictory_facts_are_refused_by_name(case: str, nav_domain: Domain) -> None:
    facts, message = CONTRADICTIONS[case]
    goal = [("object_at", "apple", "table")]
    with pytest.raises(InconsistentStateError, match=message) as info:
        problem_from_facts([*facts, ("surface_goal", "table")], goal, OBJECTS, nav_domain)
    assert "physically impossible" in str(info.value)
    assert {f.to_tuple() for c in info.value.contradictions for f in c.facts} >= set(map(tuple, facts))


@pytest.mark.parametrize("case", sorted(CONTRADICTIONS))
def test_plan_refuses_a_contradictory_initial_state(case: str, nav_domain: Domain) -> None:
    facts, message = CONTRADICTIONS[case]
    problem = problem_from_episode(EPISODE)
    bad = Problem("p", problem.objects, problem.init | {fact(*f) for f in facts}, problem.goal)
    with pytest.raises(InconsistentStateError, match=message):
        plan(bad, nav_domain)


def test_observed_state_refuses_contradictions(nav_domain: Domain) -> None:
    problem = problem_from_episode(EPISODE)
    with pytest.raises(
        InconsistentStateError, match=r"observed state.*\(closed fridge\) and \(opened fridge\)"
    ):
        observed_state(problem, nav_domain, [("opened", "fridge"), ("closed", "fridge")])


def test_consistent_states_pass(nav_domain: Domain) -> None:
    # Several robot_at facts are fine (proximity), and so is a half-open door (neither opened nor closed).
    problem = problem_from_episode(EPISODE)
    state = observed_state(
        problem, nav_domain, [("holding", "apple"), ("robot_at", "table"), ("robot_at", "fridge")]
    )
    assert fact("in", "mug", "drawer_0") not in state  # not observed: on a surface now
    assert fact("on_surface", "mug") in state and fact("hand_empty") not in state
