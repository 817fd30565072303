"""Property tests: on random small problems every plan is valid and as short as exhaustive search finds.

Goals are drawn from every positive goal form the domain can express (any type-correct atom of any
predicate: ``object_at``, ``in``, ``on_surface``, ``holding``, ``hand_empty``, ``opened``, ``closed``,
``robot_at`` and the static ones), so relevance pruning is checked against unpruned search for each.
"""

from __future__ import annotations

import itertools
from collections import deque

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planner.domain import Domain, builtin_domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import Fact, Plan, fact, simulate
from planner.problem import Problem, observed_state, problem_from_episode
from planner.search import ground, plan, relaxed_reachable

DOMAINS = {name: builtin_domain(name) for name in ("rearrange", "rearrange_nonav")}


def bfs_length(problem: Problem, domain: Domain) -> int | None:
    """Exhaustive breadth-first search over the full (unpruned) grounding: the true optimum."""
    actions = ground(problem, domain)
    frontier, seen = deque([(problem.init, 0)]), {problem.init}
    while frontier:
        state, depth = frontier.popleft()
        if problem.goal <= state:
            return depth
        for a in actions:
            if a.pre <= state:
                nxt = a.apply(state)
                if nxt not in seen:
                    seen.add(nxt)
                    frontier.append((nxt, depth + 1))
    return None


@st.composite
def problems(draw: st.DrawFn) -> tuple[Problem, Domain]:
    receptacles = (
        ReceptacleSpec("fridge", "fridge", opened=draw(st.booleans())),
        ReceptacleSpec("drawer", "drawer", opened=draw(st.booleans())),
    )
    places = st.sampled_from([None, "fridge", "drawer"])
    n_goals = draw(st.integers(1, 2))
    goals = tuple(GoalSpec(f"g{i}", receptacle=draw(places)) for i in range(n_goals))
    n_objects = draw(st.integers(1, 3))
    objects = []
    for i in range(n_objects):
        target = draw(st.sampled_from([None, *(g.handle for g in goals)])) if i else goals[0].handle
        objects.append(ObjectSpec(f"o{i}", start=draw(places), goal=target))
    finals = draw(
        st.dictionaries(st.sampled_from(["fridge", "drawer"]), st.sampled_from(["opened", "closed"]))
    )
    entities = [r.handle for r in receptacles] + [g.handle for g in goals] + [o.handle for o in objects]
    episode = Episode(
        objects=tuple(objects),
        goals=goals,
        receptacles=receptacles,
        robot_start=draw(st.sampled_from([None, *entities])),
        final_states=tuple(finals.items()),
    )
    domain = DOMAINS[draw(st.sampled_from(sorted(DOMAINS)))]
    problem = problem_from_episode(episode)
    if draw(st.booleans()):
        # Start mid-episode, holding one object (as after a replan).
        held = draw(st.sampled_from([o.handle for o in objects]))
        observed: set[Fact] = {
            f for f in problem.init if f.args[:1] != (held,) and f.predicate != "hand_empty"
        }
        problem = problem.with_init(observed_state(problem, domain, observed | {fact("holding", held)}))
    if draw(st.booleans()):
        # Replace the episode's goal with atoms of any form: the predicate first (uniformly), then its
        # arguments, so that rare forms such as (in ?o ?r) or (on_surface ?o) come up often.
        atoms = atoms_by_predicate(problem, domain)
        preds = draw(st.lists(st.sampled_from(sorted(atoms)), min_size=1, max_size=3))
        goal = {draw(st.sampled_from(atoms[p])) for p in preds}
        problem = Problem(problem.name, problem.objects, problem.init, frozenset(goal))
    return problem, domain


def atoms_by_predicate(problem: Problem, domain: Domain) -> dict[str, list[Fact]]:
    """Every type-correct ground atom of every predicate of ``domain`` over the problem's objects."""
    atoms = {}
    for pred, types in sorted(domain.predicates.items()):
        pools = [
            sorted(o for o, t in problem.objects.items() if domain.is_subtype(t, want)) for want in types
        ]
        atoms[pred] = [Fact(pred, args) for args in itertools.product(*pools)]
    return atoms


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_plans_are_valid_and_optimal(case: tuple[Problem, Domain]) -> None:
    problem, domain = case
    result = plan(problem, domain)
    if not problem.goal <= relaxed_reachable(problem.init, ground(problem, domain)):
        assert not result.solved and result.unreachable  # names the goal facts at fault
        return
    optimum = bfs_length(problem, domain)
    if optimum is None:
        assert not result.solved
        return
    assert isinstance(result, Plan), str(result)
    assert problem.goal <= simulate(problem.init, result.actions)
    assert len(result) == optimum


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(problems())
def test_pruning_keeps_an_optimal_plan_for_every_goal_form(case: tuple[Problem, Domain]) -> None:
    problem, domain = case
    pruned, full = plan(problem, domain), plan(problem, domain, prune=False)
    assert pruned.solved == full.solved, f"pruned: {pruned}; unpruned: {full}"
    assert len(pruned) == len(full)
    for result in (pruned, full):
        if isinstance(result, Plan):
            assert problem.goal <= simulate(problem.init, result.actions)


@settings(max_examples=60, deadline=None)
@given(problems())
def test_unpruned_blind_search_agrees(case: tuple[Problem, Domain]) -> None:
    problem, domain = case
    pruned, full = plan(problem, domain), plan(problem, domain, prune=False, heuristic=None)
    assert pruned.solved == full.solved
    assert len(pruned) == len(full)
