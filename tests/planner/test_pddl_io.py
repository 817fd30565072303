"""PDDL parsing guards (file and line in every error), NoNav consistency, safe names and round trips."""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.domain import Domain, PddlError, load_domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import fact
from planner.names import RESERVED_NAMES, NameMap, is_safe_name
from planner.problem import load_problem, problem_from_episode, write_problem
from planner.search import plan

DOMAIN_OK = """(define (domain tiny)
  (:requirements :strips :typing)
  (:types box)
  (:predicates (full ?b - box) (empty ?b - box))
  (:action fill
    :parameters (?b - box)
    :precondition (and (empty ?b))
    :effect (and (full ?b) (not (empty ?b)))))
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_tiny_domain_parses(tmp_path: Path) -> None:
    domain = load_domain(_write(tmp_path, "tiny.pddl", DOMAIN_OK))
    assert domain.name == "tiny"
    assert domain.action("fill").pre == (("empty", "?b"),)
    assert domain.predicates == {"full": ("box",), "empty": ("box",)}


def test_syntax_error_names_file_and_line(tmp_path: Path) -> None:
    broken = DOMAIN_OK.replace("(:action fill", "(:action fill )(")
    path = _write(tmp_path, "broken.pddl", broken)
    with pytest.raises(PddlError) as info:
        load_domain(path)
    assert info.value.path == str(path.resolve())
    assert info.value.line == 5
    assert f"{path.resolve()}:5:" in str(info.value)


def test_negative_precondition_is_refused_with_line(tmp_path: Path) -> None:
    text = DOMAIN_OK.replace("(and (empty ?b))", "(and (not (full ?b)))")
    with pytest.raises(PddlError, match="positive") as info:
        load_domain(_write(tmp_path, "neg.pddl", text))
    assert info.value.line == 5


def test_undeclared_predicate_is_refused(tmp_path: Path) -> None:
    text = DOMAIN_OK.replace("(full ?b) (not", "(fulll ?b) (not")
    with pytest.raises(PddlError, match="'fulll' is not declared") as info:
        load_domain(_write(tmp_path, "undeclared.pddl", text))
    assert info.value.line == 5


def test_unknown_parameter_type_is_refused(tmp_path: Path) -> None:
    text = DOMAIN_OK.replace(":parameters (?b - box)", ":parameters (?b - crate)")
    with pytest.raises(PddlError, match="crate"):
        load_domain(_write(tmp_path, "type.pddl", text))


def test_nonav_domain_is_the_nav_domain_without_navigation(nav_domain: Domain, nonav_domain: Domain) -> None:
    assert nonav_domain.parents == nav_domain.parents
    assert nonav_domain.predicates == nav_domain.predicates
    assert nav_domain.has_navigation and not nonav_domain.has_navigation
    nav_actions = {a.name: a for a in nav_domain.actions if a.name != "nav"}
    assert set(nav_actions) == {a.name for a in nonav_domain.actions}
    for action in nonav_domain.actions:
        twin = nav_actions[action.name]
        assert action.params == twin.params and action.add == twin.add and action.delete == twin.delete
        assert action.pre == tuple(p for p in twin.pre if p[0] != "robot_at")
        assert action.delete_all == twin.delete_all == ()
    # Navigation is the only difference: nav(?to) leaves every entity and ends next to ?to only, like the
    # simulator's robot_at (planar distance < 2 m) after the base has moved.
    nav = nav_domain.action("nav")
    assert nav.params == (("?to", "entity"),) and nav.pre == ()
    assert nav.add == (("robot_at", "?to"),) and nav.delete == ()
    assert nav.delete_all == (((("?e", "entity"),), ("robot_at", "?e")),)
    # The NoNav file needs no :conditional-effects (its only forall is nav's); everything else is shared.
    nav_text, nonav_text = nav_domain.path.read_text(), nonav_domain.path.read_text()
    assert "(:requirements :strips :typing :conditional-effects)" in nav_text
    assert "(:requirements :strips :typing)" in nonav_text and "forall" not in nonav_text


def test_domain_goals_are_positive(nav_domain: Domain) -> None:
    # `closed` is its own predicate, so "close the fridge" is a positive goal.
    assert "closed" in nav_domain.predicates and "opened" in nav_domain.predicates


def test_negative_goal_in_problem_file_is_refused(tmp_path: Path, nav_domain: Domain) -> None:
    episode = Episode(objects=(), goals=(), receptacles=(ReceptacleSpec("fridge", "fridge", opened=True),))
    text = write_problem(problem_from_episode(episode), nav_domain)
    text = text.replace("(:goal (and\n", "(:goal (and\n    (not (opened fridge))\n")
    path = _write(tmp_path, "neg_goal.pddl", text)
    with pytest.raises(PddlError, match="not") as info:
        load_problem(path, nav_domain)
    assert info.value.line == text.splitlines().index("    (not (opened fridge))") + 1


def test_problem_with_unknown_object_names_it_and_its_line(tmp_path: Path, nav_domain: Domain) -> None:
    episode = Episode(objects=(ObjectSpec("cup"),), goals=(GoalSpec("spot"),))
    text = write_problem(problem_from_episode(episode), nav_domain)
    text = text.replace("(:goal (and\n", "(:goal (and\n    (object_at mug spot)\n")
    path = _write(tmp_path, "unknown.pddl", text)
    with pytest.raises(PddlError, match="'mug'") as info:
        load_problem(path, nav_domain)
    assert info.value.line == text.splitlines().index("    (object_at mug spot)") + 1


@pytest.mark.parametrize(
    "handle", ["start", "end", "all", "either", "number", "3_bowl", "Bowl", "cup:1", "a b"]
)
def test_unsafe_names_are_mapped_and_back(handle: str) -> None:
    names = NameMap.for_handles([handle, "table"])
    pddl = names.pddl(handle)
    assert is_safe_name(pddl) and pddl != handle
    assert names.handle(pddl) == handle
    assert names.pddl("table") == "table"


def test_reserved_names_come_from_the_grammar() -> None:
    assert {"start", "end", "all", "either", "number", "and", "not"} <= RESERVED_NAMES


def test_colliding_sanitized_names_stay_distinct() -> None:
    names = NameMap.for_handles(["Cup", "cup", "cup!", "o_start", "start"])
    assert len(set(names.to_pddl.values())) == 5
    assert all(names.handle(names.pddl(h)) == h for h in ["Cup", "cup", "cup!", "o_start", "start"])


def test_unsafe_handles_round_trip_through_a_pddl_file(tmp_path: Path, nav_domain: Domain) -> None:
    episode = Episode(
        objects=(ObjectSpec("start", start="either", goal="end"), ObjectSpec("3_apples", goal="all")),
        goals=(GoalSpec("end"), GoalSpec("all", receptacle="either")),
        receptacles=(ReceptacleSpec("either", "drawer"),),
        final_states=(("either", "closed"),),
    )
    problem = problem_from_episode(episode)
    path = tmp_path / "p.pddl"
    text = write_problem(problem, nav_domain, path)
    assert "(object_at start" not in text  # written under safe names
    loaded = load_problem(path, nav_domain, handles=problem.objects)
    assert loaded.objects == problem.objects
    assert loaded.init == problem.init and loaded.goal == problem.goal
    assert len(plan(loaded, nav_domain)) == len(plan(problem, nav_domain)) > 0
    assert fact("closed", "either") in loaded.goal


def test_problem_for_another_domain_is_refused(
    tmp_path: Path, nav_domain: Domain, nonav_domain: Domain
) -> None:
    text = write_problem(problem_from_episode(Episode(objects=(), goals=())), nonav_domain)
    with pytest.raises(PddlError, match="rearrange_nonav") as info:
        load_problem(_write(tmp_path, "other.pddl", text), nav_domain)
    assert info.value.line == 3
