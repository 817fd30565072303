"""The HAB scenarios: reference plan lengths, valid plans, NoNav plans, skill calls."""

from __future__ import annotations

import pytest

from planner.domain import Domain, builtin_domain
from planner.facts import Plan, simulate
from planner.problem import problem_from_episode
from planner.scenarios import REFERENCE_PLAN_LENGTHS, SCENARIOS, get_scenario
from planner.search import plan
from planner.skills import SKILL_NAMES, skill_call


def _solve(name: str, domain: Domain, distractors: int = 20) -> tuple:
    problem = problem_from_episode(get_scenario(name, n_distractors=distractors))
    result = plan(problem, domain)
    assert isinstance(result, Plan), str(result)
    return problem, result


@pytest.mark.parametrize("name", sorted(SCENARIOS))
@pytest.mark.parametrize("distractors", [0, 25])
def test_reference_plan_length_and_valid(name: str, distractors: int, nav_domain: Domain) -> None:
    problem, result = _solve(name, nav_domain, distractors)
    assert len(result) == REFERENCE_PLAN_LENGTHS[name]
    assert problem.goal <= simulate(problem.init, result.actions)
    # Distractors are never touched.
    assert not any(arg.startswith("distractor_") for a in result.actions for arg in a.args)


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_nonav_plans_have_no_navigation(name: str, nonav_domain: Domain) -> None:
    problem, result = _solve(name, nonav_domain)
    assert all(a.name != "nav" for a in result.actions)
    assert all(skill_call(a).skill != "nav" for a in result.actions)
    # Without navigation each object costs a pick and a place; Set Table adds its two opens.
    assert len(result) == REFERENCE_PLAN_LENGTHS[name] // 2
    assert problem.goal <= simulate(problem.init, result.actions)


def test_tidy_house_is_nav_pick_nav_place(nav_domain: Domain) -> None:
    _, result = _solve("tidy_house", nav_domain)
    skills = [skill_call(a).skill for a in result.actions]
    assert skills == ["nav", "pick", "nav", "place"] * 5


def test_set_table_opens_before_picking(nav_domain: Domain) -> None:
    _, result = _solve("set_table", nav_domain)
    names = [str(a) for a in result.actions]
    assert names.index("open_drawer(kitchen_drawer)") < names.index("pick_from(bowl, kitchen_drawer)")
    assert names.index("open_fridge(fridge)") < names.index("pick_from(fruit, fridge)")
    # The robot navigates again from the receptacle to the object after opening it (the "nav again").
    for opened, obj in (("open_drawer(kitchen_drawer)", "bowl"), ("open_fridge(fridge)", "fruit")):
        after = result.actions[names.index(opened) + 1]
        assert after.name == "nav" and after.args == (obj,)


def test_prepare_groceries_uses_the_open_fridge_without_opening(nav_domain: Domain) -> None:
    _, result = _solve("prepare_groceries", nav_domain)
    assert not any(a.name.startswith("open") for a in result.actions)
    assert sum(a.name == "place_in" for a in result.actions) == 2


def test_skill_calls_name_target_and_goal(nav_domain: Domain) -> None:
    _, result = _solve("set_table", nav_domain)
    calls = [skill_call(a) for a in result.actions]
    assert {c.skill for c in calls} <= set(SKILL_NAMES)
    place = next(c for c in calls if c.skill == "place")
    assert (place.target, place.goal) in {("bowl", "table_bowl_spot"), ("fruit", "table_fruit_spot")}
    nav = calls[0]
    assert nav.skill == "nav" and nav.target in {"kitchen_drawer", "fridge"} and nav.goal is None


def test_skill_call_rejects_unknown_action() -> None:
    from planner.facts import GroundAction

    with pytest.raises(KeyError, match="known actions"):
        skill_call(GroundAction("teleport", ("x",), frozenset(), frozenset(), frozenset()))


def test_unknown_scenario_lists_known() -> None:
    with pytest.raises(KeyError, match="set_table"):
        get_scenario("set_tabel")


_PLANS = """
from planner import builtin_domain, get_scenario, plan, problem_from_episode
for dom in ("rearrange", "rearrange_nonav"):
    for sc in ("tidy_house", "prepare_groceries", "set_table"):
        r = plan(problem_from_episode(get_scenario(sc)), builtin_domain(dom))
        print(dom, sc, [(a.name, a.args) for a in r.actions])
"""


def test_plans_do_not_depend_on_string_hashing_and_follow_the_episode() -> None:
    # Ties between equally short plans once followed set iteration order, i.e. PYTHONHASHSEED: NoNav
    # Set Table opened the fridge first in one evaluation run and the drawer in another.
    import os
    import subprocess
    import sys

    runs = [
        subprocess.run(
            [sys.executable, "-c", _PLANS],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("1", "2", "3")
    ]
    assert runs[0] == runs[1] == runs[2] and runs[0].count("\n") == 6
    nonav = plan(problem_from_episode(get_scenario("set_table")), builtin_domain("rearrange_nonav"))
    assert [a.name for a in nonav.actions][:3] == ["open_drawer", "pick_from", "place"]  # the bowl first
    tidy = plan(problem_from_episode(get_scenario("tidy_house")), builtin_domain("rearrange_nonav"))
    assert [a.args[0] for a in tidy.actions[::2]] == [f"object_{i}" for i in range(5)]  # as listed
