"""Optimal plans (fewest skill calls): grounding, relevance pruning, an admissible heuristic, and A*.

Generic planners are slow on this domain because every distractor object multiplies the ``nav`` and
``pick`` groundings, and a goal-count heuristic guides them poorly. Two things make it fast:

1. :func:`relevant_objects` keeps only the objects a plan can need (the goal's objects, the receptacles
   holding them or their goal positions, where the robot is), so distractors never reach the grounder.
2. :func:`rearrange_heuristic` counts actions every plan still has to take (one place per unmet
   ``object_at`` goal, one pick per such object not in hand, one open per closed receptacle in the way,
   one ``nav`` per entity that must be visited and is not where the robot is). Each counted action is a
   distinct ground action, so the sum is a lower bound (admissible) and A* returns an optimal plan; on the
   HAB scenarios it is exact at the start, so A* walks straight down the optimal path.

Unit action costs: the plan length is the number of skill calls.
"""

from __future__ import annotations

import heapq
import itertools
import time
from collections.abc import Callable, Iterable, Mapping, Sequence

from planner.diagnose import explain_half_open, half_open
from planner.domain import ActionSchema, Atom, Domain
from planner.facts import Fact, GroundAction, NoPlan, Plan, PlanResult, State
from planner.problem import Problem, check_problem

__all__ = [
    "Heuristic",
    "astar",
    "ground",
    "plan",
    "rearrange_heuristic",
    "relaxed_reachable",
    "relevant_objects",
]

#: A heuristic: state -> lower bound on the number of actions still needed.
Heuristic = Callable[[State], int]


def _bind(atoms: Sequence[Atom], binding: Mapping[str, str]) -> frozenset[Fact]:
    return frozenset(Fact(a[0], tuple(binding.get(t, t) for t in a[1:])) for a in atoms)


def ground(
    problem: Problem, domain: Domain, objects: Iterable[str] | None = None
) -> tuple[GroundAction, ...]:
    """All ground actions over ``objects`` (default: every object) whose static preconditions hold.

    Actions that cannot change any state are dropped. Universal deletes (``forall``) range over every
    object of the problem, pruned or not, so that nav leaves a distractor the robot was near as well.
    """
    keep = None if objects is None else set(objects)
    pool = [o for o in problem.objects if keep is None or o in keep]
    statics = {f for f in problem.init if f.predicate in domain.static_predicates}
    result: list[tuple[tuple, GroundAction]] = []
    order = tie_order(problem)
    for i, schema in enumerate(domain.actions):
        result += [
            ((tuple(order[o] for o in a.args), i), a)
            for a in _ground_schema(schema, problem, domain, pool, statics)
        ]
    # This order is the search's tie-break (see `tie_order`): actions on the episode's first objects first.
    return tuple(a for _, a in sorted(result, key=lambda r: r[0]))


def tie_order(problem: Problem) -> dict[str, tuple[int, int, int]]:
    """Sort keys of the objects that make the search break ties between equally short plans in the
    episode's order: movable objects as listed, each container just before the first object listed in
    it, each goal just after its object, the rest after them all in the problem's order. `ground`
    returns actions sorted by their arguments' keys (then schema order), and the search expands
    successors in that order, so among equally short plans it finds the one that follows the episode.
    Without a fixed order the choice followed the state's set iteration, that is string hashing, which
    changes per process (Set Table planned the fridge first in some evaluation runs, the drawer in others).
    """
    objects = list(problem.objects)
    movable = [o for o in objects if problem.objects[o] == "movable"]
    n = len(objects)
    key = {o: (n, 0, i) for i, o in enumerate(objects)}
    key.update({o: (i, 0, 0) for i, o in enumerate(movable)})
    for f in problem.init:
        if f.predicate == "in" and f.args[0] in key and f.args[1] in key:
            key[f.args[1]] = min(key[f.args[1]], (key[f.args[0]][0], -1, 0))
    for f in problem.goal:
        if f.predicate == "object_at" and f.args[0] in key:
            key[f.args[1]] = min(key[f.args[1]], (key[f.args[0]][0], 1, 0))
    return key


def _universal_deletes(schema: ActionSchema, problem: Problem, domain: Domain) -> frozenset[Fact]:
    """The facts a schema's ``forall`` deletes remove, over all objects (parameter-free foralls only)."""
    facts: set[Fact] = set()
    for variables, atom in schema.delete_all:
        names = [v for v, _ in variables]
        pools = [[o for o, typ in problem.objects.items() if domain.is_subtype(typ, t)] for _, t in variables]
        for combo in itertools.product(*pools):
            facts |= _bind((atom,), dict(zip(names, combo, strict=True)))
    return frozenset(facts)


def _ground_schema(
    schema: ActionSchema, problem: Problem, domain: Domain, pool: list[str], statics: set[Fact]
) -> Iterable[GroundAction]:
    candidates = [[o for o in pool if domain.is_subtype(problem.objects[o], t)] for _, t in schema.params]
    names = [p for p, _ in schema.params]
    everywhere = _universal_deletes(schema, problem, domain)
    for combo in itertools.product(*candidates):
        binding = dict(zip(names, combo, strict=True))
        pre = _bind(schema.pre, binding)
        if any(f.predicate in domain.static_predicates and f not in statics for f in pre):
            continue
        add, delete = _bind(schema.add, binding), _bind(schema.delete, binding) | everywhere
        if add <= pre and delete <= add:
            continue  # a no-op in every state where it applies
        result_pre = frozenset(f for f in pre if f.predicate not in domain.static_predicates)
        yield GroundAction(schema.name, combo, result_pre, add, delete)


def relevant_objects(problem: Problem) -> frozenset[str]:
    """The objects an optimal plan can involve; every other object is a distractor.

    Relevant are the objects named in the goal, the goal positions where a goal fact can be made true
    (an ``(in o r)`` goal needs the positions inside ``r``, an ``(on_surface o)`` goal the positions on
    surfaces), the entities the robot is at and anything held; when something is held at the start or
    must be held at the end, every goal position is a candidate spot to put it down meanwhile. The set is
    closed under "the receptacle an object or goal position is in". Any action on another object only
    serves to make facts about that object true, which no relevant action needs, so dropping it keeps
    some optimal plan (the property test checks this against unpruned search for every positive goal
    form).
    """
    keep = {a for f in problem.goal for a in f.args}
    keep |= {a for f in problem.init if f.predicate in ("robot_at", "holding") for a in f.args}
    keep |= _goal_spots(problem)
    containment = [f.args for f in problem.init if f.predicate in ("in", "goal_in")]
    changed = True
    while changed:
        changed = False
        for inner, outer in containment:
            if inner in keep and outer not in keep:
                keep.add(outer)
                changed = True
    return frozenset(keep & set(problem.objects))


def _goal_spots(problem: Problem) -> set[str]:
    """Goal positions a place may use to make a goal fact true (or to free the hand).

    With an object in hand at the start or at the end, any position may serve to put it down for a
    while (to open or close something first), so all are kept.
    """
    goals = {h for h, t in problem.objects.items() if t == "goal"}
    if any(f.predicate == "holding" for f in problem.init | problem.goal):
        return goals
    spots: set[str] = set()
    wanted_in = {f.args[1] for f in problem.goal if f.predicate == "in"}
    if wanted_in:
        spots |= {f.args[0] for f in problem.init if f.predicate == "goal_in" and f.args[1] in wanted_in}
    if any(f.predicate == "on_surface" for f in problem.goal):
        spots |= {f.args[0] for f in problem.init if f.predicate == "surface_goal"}
    return spots & goals


def rearrange_heuristic(problem: Problem, domain: Domain) -> Heuristic:
    """An admissible lower bound on the remaining skill calls for the rearrange domains (see module doc)."""
    object_goals = [f.args for f in problem.goal if f.predicate == "object_at"]
    surface = {f.args[0] for f in problem.init if f.predicate == "surface_goal"}
    homes: dict[str, set[str]] = {}
    for f in problem.init:
        if f.predicate == "goal_in":
            homes.setdefault(f.args[0], set()).add(f.args[1])
    # A goal position needs its receptacle open only if it is in exactly one and not also on a surface.
    goal_box = {g: next(iter(rs)) for g, rs in homes.items() if len(rs) == 1 and g not in surface}
    want_open = {f.args[0] for f in problem.goal if f.predicate == "opened"}
    want_closed = {f.args[0] for f in problem.goal if f.predicate == "closed"}
    navigation = domain.has_navigation

    def h(state: State) -> int:
        held, at, closed, opened = set(), set(), set(), set()
        inside: dict[str, str] = {}
        for f in state:
            p = f.predicate
            if p == "holding":
                held.add(f.args[0])
            elif p == "robot_at":
                at.add(f.args[0])
            elif p == "closed":
                closed.add(f.args[0])
            elif p == "opened":
                opened.add(f.args[0])
            elif p == "in":
                inside[f.args[0]] = f.args[1]
        unmet = [(o, g) for o, g in object_goals if Fact("object_at", (o, g)) not in state]
        to_pick = {o for o, _ in unmet if o not in held}
        visit = to_pick | {g for _, g in unmet}
        need_open = {r for r in want_open if r not in opened}
        need_open |= {inside[o] for o in to_pick if inside.get(o) in closed}
        need_open |= {goal_box[g] for _, g in unmet if goal_box.get(g) in closed}
        need_close = {r for r in want_closed if r not in closed} | (need_open & want_closed)
        cost = len(unmet) + len(to_pick) + len(need_open) + len(need_close)
        if navigation:
            visit |= need_open | need_close
            cost += len(visit - at)
        return cost

    return h


def relaxed_reachable(init: State, actions: Sequence[GroundAction]) -> frozenset[Fact]:
    """Facts reachable when delete effects are ignored: a fact outside this set can never hold."""
    reached = set(init)
    pending = list(actions)
    while True:
        waiting = [a for a in pending if not a.pre <= reached]
        if len(waiting) == len(pending):
            return frozenset(reached)
        for a in pending:
            if a.pre <= reached:
                reached |= a.add
        pending = waiting


def astar(
    init: State, goal: frozenset[Fact], actions: Sequence[GroundAction], h: Heuristic, max_expansions: int
) -> tuple[tuple[GroundAction, ...] | None, int]:
    """A* over unit-cost actions; returns (plan or None if exhausted or over the limit, nodes expanded).

    With an admissible ``h`` the plan is optimal (states are reopened when reached more cheaply, so
    consistency is not required). Ties on f prefer deeper nodes, which follows an exact heuristic straight
    to the goal.
    """
    by_first: dict[Fact, list[tuple[int, GroundAction]]] = {}
    unconditional: list[tuple[int, GroundAction]] = []
    for i, a in enumerate(actions):
        # Index each action under one precondition so successors only scan actions that may apply.
        (by_first.setdefault(min(a.pre), []) if a.pre else unconditional).append((i, a))
    counter = itertools.count()
    best_g = {init: 0}
    parent: dict[State, tuple[State, GroundAction]] = {}
    frontier = [(h(init), 0, next(counter), init)]
    expanded = 0
    while frontier:
        _, neg_g, _, state = heapq.heappop(frontier)
        g = -neg_g
        if g > best_g[state]:
            continue
        if goal <= state:
            return _unwind(state, parent), expanded
        expanded += 1
        if expanded > max_expansions:
            return None, expanded
        candidates = itertools.chain(unconditional, *(by_first.get(f, ()) for f in state))
        # Successors in the order of `actions`, not of the state's (hash-ordered) facts: ties on f and g
        # go to the first pushed, so this makes the plan among equally short ones reproducible.
        for _, a in sorted(c for c in candidates if c[1].pre <= state):
            nxt = (state - a.delete) | a.add
            if g + 1 < best_g.get(nxt, 1 << 30):
                best_g[nxt] = g + 1
                parent[nxt] = (state, a)
                heapq.heappush(frontier, (g + 1 + h(nxt), -(g + 1), next(counter), nxt))
    return None, expanded


def _unwind(state: State, parent: Mapping[State, tuple[State, GroundAction]]) -> tuple[GroundAction, ...]:
    steps: list[GroundAction] = []
    while state in parent:
        state, action = parent[state]
        steps.append(action)
    return tuple(reversed(steps))


def plan(
    problem: Problem,
    domain: Domain,
    *,
    prune: bool = True,
    heuristic: Callable[[Problem, Domain], Heuristic] | None = rearrange_heuristic,
    max_expansions: int = 200_000,
) -> PlanResult:
    """An optimal plan for ``problem``, or a :class:`NoPlan` saying which goal facts cannot be reached.

    Args:
        problem: the problem (its names are checked against ``domain`` first).
        domain: the domain, e.g. ``builtin_domain("rearrange")``.
        prune: ground only :func:`relevant_objects` (sound for the rearrange domains).
        heuristic: factory of an admissible heuristic; None for blind (breadth-first order) search.
        max_expansions: give up (NoPlan) after expanding this many states.

    Raises:
        ProblemError: if the problem names unknown objects or predicates.
    """
    start = time.perf_counter()
    check_problem(problem, domain)
    objects = relevant_objects(problem) if prune else None
    actions = ground(problem, domain, objects)
    goal = problem.goal
    reachable = relaxed_reachable(problem.init, actions)
    unreachable = tuple(sorted(goal - reachable))
    if unreachable:
        facts = ", ".join(str(f) for f in unreachable)
        return _no_plan(problem, domain, actions, unreachable, f"no action sequence can make {facts} true")
    h = heuristic(problem, domain) if heuristic is not None else (lambda _s: 0)
    steps, expanded = astar(problem.init, goal, actions, h, max_expansions)
    if steps is None:
        reason = (
            f"gave up after {max_expansions} expansions"
            if expanded > max_expansions
            else "each goal fact is reachable alone, but not all of them together"
        )
        return _no_plan(problem, domain, actions, (), reason, expanded)
    return Plan(steps, expanded, time.perf_counter() - start)


def _no_plan(
    problem: Problem,
    domain: Domain,
    actions: Sequence[GroundAction],
    unreachable: tuple[Fact, ...],
    reason: str,
    expanded: int = 0,
) -> NoPlan:
    """A NoPlan whose reason leads with any half-open receptacle among the grounded objects."""
    grounded = {a for action in actions for a in action.args}
    objects = {h: t for h, t in problem.objects.items() if h in grounded}
    stuck = half_open(problem.init, objects, domain)
    goal = tuple(sorted(problem.goal))
    if not stuck:
        return NoPlan(unreachable, goal, reason, expanded)
    why = explain_half_open(
        problem.init, problem.goal, stuck, actions, lambda s: relaxed_reachable(s, actions)
    )
    return NoPlan(unreachable, goal, f"{why} ({reason})", expanded, stuck)
