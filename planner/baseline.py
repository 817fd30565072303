"""A generic planner to compare against: greedy best-first search, goal-count heuristic, no pruning.

This is what an off-the-shelf planner does on this domain (pddlpy's own searches use the same
goal-count heuristic): fast to write, neither optimal nor quick with distractors. Only the benchmark
uses it.
"""

from __future__ import annotations

import heapq
import itertools
import time

from planner.domain import Domain
from planner.facts import GroundAction, NoPlan, Plan, PlanResult
from planner.problem import Problem, check_problem
from planner.search import ground

__all__ = ["greedy_best_first"]


def greedy_best_first(problem: Problem, domain: Domain, *, time_limit: float = 10.0) -> PlanResult:
    """Greedy best-first search on the full grounding, ordered by the number of unmet goal facts."""
    start = time.perf_counter()
    check_problem(problem, domain)
    actions = ground(problem, domain)
    goal = problem.goal
    counter = itertools.count()
    frontier = [(len(goal - problem.init), next(counter), problem.init)]
    parent: dict[frozenset, tuple[frozenset, GroundAction] | None] = {problem.init: None}
    expanded = 0
    while frontier:
        _, _, state = heapq.heappop(frontier)
        if goal <= state:
            steps = []
            while parent[state] is not None:
                state, action = parent[state]  # type: ignore[misc]
                steps.append(action)
            return Plan(tuple(reversed(steps)), expanded, time.perf_counter() - start)
        expanded += 1
        if expanded % 256 == 0 and time.perf_counter() - start > time_limit:
            return NoPlan((), tuple(sorted(goal)), f"baseline gave up after {time_limit} s", expanded)
        for a in actions:
            if a.pre <= state:
                nxt = (state - a.delete) | a.add
                if nxt not in parent:
                    parent[nxt] = (state, a)
                    heapq.heappush(frontier, (len(goal - nxt), next(counter), nxt))
    return NoPlan((), tuple(sorted(goal)), "baseline exhausted the state space", expanded)
