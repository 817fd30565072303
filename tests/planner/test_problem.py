"""Episodes and problems: bad input names what is wrong; unsolvable goals give a NoPlan; derived facts."""

from __future__ import annotations

import pytest

from planner.domain import Domain
from planner.episode import Episode, EpisodeError, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import Fact, NoPlan, Plan, fact, simulate
from planner.problem import Problem, ProblemError, observed_state, problem_from_episode, problem_from_facts
from planner.search import plan, relevant_objects

FRIDGE = ReceptacleSpec("fridge", "fridge")


def test_unknown_start_receptacle_is_named() -> None:
    with pytest.raises(EpisodeError, match=r"episode.objects\[0\].start: unknown receptacle 'fridg'"):
        Episode(objects=(ObjectSpec("apple", start="fridg"),), goals=(), receptacles=(FRIDGE,))


def test_unknown_goal_is_named() -> None:
    with pytest.raises(EpisodeError, match=r"objects\[1\].goal: unknown goal position 'tabel'.*'table'"):
        Episode(
            objects=(ObjectSpec("a", goal="table"), ObjectSpec("b", goal="tabel")), goals=(GoalSpec("table"),)
        )


def test_bad_receptacle_kind_lists_accepted() -> None:
    with pytest.raises(EpisodeError, match=r"kind: 'oven'.*'fridge', 'drawer'"):
        Episode(objects=(), goals=(), receptacles=(ReceptacleSpec("oven", "oven"),))


def test_duplicate_and_reserved_handles() -> None:
    with pytest.raises(EpisodeError, match="already used"):
        Episode(objects=(ObjectSpec("x"),), goals=(GoalSpec("x"),))
    with pytest.raises(EpisodeError, match="reserved"):
        Episode(objects=(ObjectSpec("robot_origin"),), goals=())


def test_from_dict_builds_and_rejects_unknown_fields() -> None:
    data = {
        "receptacles": [{"handle": "fridge", "kind": "fridge", "opened": False}],
        "goals": [{"handle": "table"}, {"handle": "shelf", "receptacle": "fridge"}],
        "objects": [{"handle": "apple", "start": "fridge", "goal": "table"}, {"handle": "mug"}],
        "final_states": {"fridge": "closed"},
    }
    episode = Episode.from_dict(data)
    assert [o.handle for o in episode.targets] == ["apple"]
    assert episode.final_states == (("fridge", "closed"),)
    with pytest.raises(EpisodeError, match=r"episode.objects\[1\]: unknown field\(s\) \['goel'\]"):
        Episode.from_dict({**data, "objects": [data["objects"][0], {"handle": "mug", "goel": "table"}]})
    with pytest.raises(EpisodeError, match=r"final_states\['fridge'\]: 'shut'"):
        Episode.from_dict({**data, "final_states": {"fridge": "shut"}})


def test_problem_from_episode_facts() -> None:
    episode = Episode(
        objects=(ObjectSpec("apple", start="fridge", goal="shelf"), ObjectSpec("mug")),
        goals=(GoalSpec("shelf", receptacle="fridge"),),
        receptacles=(FRIDGE,),
    )
    problem = problem_from_episode(episode)
    assert fact("in", "apple", "fridge") in problem.init
    assert fact("on_surface", "mug") in problem.init
    assert fact("goal_in", "shelf", "fridge") in problem.init
    assert fact("closed", "fridge") in problem.init
    assert problem.goal == {fact("object_at", "apple", "shelf")}
    assert relevant_objects(problem) == {"apple", "shelf", "fridge", "robot_origin"}


def test_goal_with_unknown_object_is_named(nav_domain: Domain) -> None:
    problem = problem_from_episode(Episode(objects=(ObjectSpec("cup"),), goals=(GoalSpec("spot"),)))
    bad = Problem("p", problem.objects, problem.init, frozenset({fact("object_at", "mug", "spot")}))
    with pytest.raises(ProblemError, match="unknown object 'mug'"):
        plan(bad, nav_domain)
    wrong_type = Problem("p", problem.objects, problem.init, frozenset({fact("opened", "cup")}))
    with pytest.raises(ProblemError, match="'cup' is a movable; opened takes a receptacle"):
        plan(wrong_type, nav_domain)


def test_unreachable_goal_gives_no_plan_listing_it(nav_domain: Domain) -> None:
    # Nothing can be put *in* the drawer: it holds no goal position.
    episode = Episode(
        objects=(ObjectSpec("apple", goal="table"),),
        goals=(GoalSpec("table"),),
        receptacles=(ReceptacleSpec("drawer_0", "drawer"),),
    )
    problem = problem_from_episode(episode)
    goal = problem.goal | {fact("in", "apple", "drawer_0")}
    result = plan(Problem("p", problem.objects, problem.init, goal), nav_domain)
    assert isinstance(result, NoPlan) and not result.solved
    assert result.unreachable == (fact("in", "apple", "drawer_0"),)
    assert "(in apple drawer_0)" in str(result)


def test_jointly_unreachable_goals_give_no_plan(nav_domain: Domain) -> None:
    problem = problem_from_episode(Episode(objects=(), goals=(), receptacles=(FRIDGE,)))
    goal = frozenset({fact("opened", "fridge"), fact("closed", "fridge")})
    result = plan(Problem("p", problem.objects, problem.init, goal), nav_domain)
    assert isinstance(result, NoPlan)
    assert result.unreachable == () and "not all of them together" in result.reason


def test_observed_state_derives_hand_and_surface_facts(nav_domain: Domain) -> None:
    episode = Episode(
        objects=(ObjectSpec("apple", start="fridge", goal="table"), ObjectSpec("mug")),
        goals=(GoalSpec("table"),),
        receptacles=(FRIDGE,),
    )
    problem = problem_from_episode(episode)
    state = observed_state(problem, nav_domain, [("holding", "apple"), ("opened", "fridge")])
    assert fact("hand_empty") not in state and fact("on_surface", "apple") not in state
    assert fact("on_surface", "mug") in state
    assert fact("surface_goal", "table") in state  # static, kept from the episode
    assert fact("robot_at", "robot_origin") in state  # near nothing: the origin waypoint
    with pytest.raises(ProblemError, match="unknown object 'banana'"):
        observed_state(problem, nav_domain, [("holding", "banana")])


def test_problem_from_facts_plans(nav_domain: Domain) -> None:
    objects = {"apple": "movable", "table": "goal", "robot_origin": "waypoint"}
    facts = [("robot_at", "apple"), ("surface_goal", "table")]
    problem = problem_from_facts(facts, [("object_at", "apple", "table")], objects, nav_domain)
    result = plan(problem, nav_domain)
    assert isinstance(result, Plan)
    assert [str(a) for a in result.actions] == ["pick(apple)", "nav(table)", "place(apple, table)"]
    assert problem.goal <= simulate(problem.init, result.actions)


def test_nav_leaves_every_place_the_robot_was_near(nav_domain: Domain) -> None:
    # Observed near both objects (robot_at is proximity). After carrying one away the robot is no longer
    # near the other: the plan must go back for it (7 steps, not 6).
    episode = Episode(
        objects=(ObjectSpec("apple", goal="shelf"), ObjectSpec("banana", goal="bin")),
        goals=(GoalSpec("shelf"), GoalSpec("bin")),
    )
    problem = problem_from_episode(episode)
    near_both = observed_state(problem, nav_domain, [("robot_at", "apple"), ("robot_at", "banana")])
    result = plan(problem.with_init(near_both), nav_domain)
    assert isinstance(result, Plan) and len(result) == 7
    state = near_both
    for action in result.actions:
        state = simulate(state, [action])
        if action.name == "nav":
            assert {f for f in state if f.predicate == "robot_at"} == {fact("robot_at", action.args[0])}


@pytest.mark.parametrize(
    ("goal", "length"),
    [
        # The minimal case: nav fridge, open, nav apple, pick, nav shelf, place_in.
        (fact("in", "apple", "fridge"), 6),
        # Out of the fridge onto a surface: nav fridge, open, nav pear, pick_from, nav table, place.
        (fact("on_surface", "pear"), 6),
    ],
)
def test_in_and_on_surface_goals_are_planned_with_pruning(
    goal: Fact, length: int, nav_domain: Domain
) -> None:
    episode = Episode(
        objects=(ObjectSpec("apple"), ObjectSpec("pear", start="fridge"), ObjectSpec("mug")),
        goals=(GoalSpec("shelf", receptacle="fridge"), GoalSpec("table")),
        receptacles=(FRIDGE,),
    )
    base = problem_from_episode(episode)
    problem = Problem("p", base.objects, base.init, frozenset({goal}))
    pruned, full = plan(problem, nav_domain), plan(problem, nav_domain, prune=False)
    assert isinstance(pruned, Plan) and isinstance(full, Plan)
    assert len(pruned) == len(full) == length
    assert goal in simulate(problem.init, pruned.actions)
    assert "mug" not in relevant_objects(problem)
