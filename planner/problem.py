"""Planning problems: built from an episode or from observed facts, checked, written to and read from PDDL.

A :class:`Problem` is plain data (typed objects, initial state, goal). Two facts of the rearrange domains are
*derived* rather than observed, because a simulator reports only what is true of an object:

* ``hand_empty`` holds when no ``holding`` fact does;
* ``on_surface o`` holds for a movable object that is neither held nor ``in`` a receptacle.

Static facts (``surface_goal``, ``goal_in``: where the goal positions are) come from the episode and are
kept when the problem is rebuilt from observations with :func:`observed_state`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path

from pddlpy.pddl import ProblemListener

from planner.consistency import Contradiction, contradictions
from planner.domain import Domain, PddlError, line_of, parse_pddl
from planner.episode import ROBOT_ORIGIN, Episode
from planner.facts import Fact, FactLike, State, fact, state_from
from planner.names import NameMap, is_safe_name

__all__ = [
    "InconsistentStateError",
    "Problem",
    "ProblemError",
    "check_problem",
    "load_problem",
    "observed_state",
    "problem_from_episode",
    "problem_from_facts",
    "write_problem",
]


class ProblemError(ValueError):
    """A problem that does not fit its domain; the message names the fact, argument and accepted values."""


class InconsistentStateError(ProblemError):
    """A state whose facts cannot hold together (see :mod:`planner.consistency`).

    Attributes:
        contradictions: each set of conflicting facts with the rule it breaks.
    """

    def __init__(self, what: str, found: list[Contradiction]) -> None:
        self.contradictions = tuple(found)
        detail = "; ".join(map(str, found))
        super().__init__(f"{what} is physically impossible: {detail}")


def check_consistent(state: Iterable[Fact], what: str = "state") -> None:
    """Raise :class:`InconsistentStateError` naming the facts if ``state`` contradicts itself."""
    found = contradictions(state)
    if found:
        raise InconsistentStateError(what, found)


@dataclass(frozen=True)
class Problem:
    """A planning problem over object handles (not PDDL names; see :mod:`planner.names`).

    Attributes:
        name: a label, used as the PDDL problem name.
        objects: handle -> PDDL type.
        init: the initial state, derived facts included.
        goal: facts that must all hold at the end (positive facts only).
    """

    name: str
    objects: Mapping[str, str]
    init: State
    goal: frozenset[Fact]

    def with_init(self, state: State) -> Problem:
        """The same problem from another initial state (used to replan)."""
        return replace(self, init=frozenset(state))


def problem_from_episode(episode: Episode) -> Problem:
    """The planning problem of an episode: every object, goal and receptacle, and the episode's goal."""
    objects: dict[str, str] = {ROBOT_ORIGIN: "waypoint"}
    init: set[Fact] = {fact("hand_empty"), fact("robot_at", episode.robot_start or ROBOT_ORIGIN)}
    for r in episode.receptacles:
        objects[r.handle] = r.kind
        init.add(fact("opened" if r.opened else "closed", r.handle))
    for g in episode.goals:
        objects[g.handle] = "goal"
        init.add(fact("goal_in", g.handle, g.receptacle) if g.receptacle else fact("surface_goal", g.handle))
    for o in episode.objects:
        objects[o.handle] = "movable"
        init.add(fact("in", o.handle, o.start) if o.start else fact("on_surface", o.handle))
    goal = {fact("object_at", o.handle, o.goal) for o in episode.targets}
    goal |= {fact(state, handle) for handle, state in episode.final_states}
    return Problem(episode.name, objects, frozenset(init), frozenset(goal))


def observed_state(problem: Problem, domain: Domain, observed: Iterable[FactLike]) -> State:
    """The planner state for facts observed in the simulator, with derived and static facts added.

    Observed facts over static predicates are ignored in favour of the problem's own (they cannot change).
    If the robot is near nothing (no ``robot_at`` fact) it is placed at the problem's waypoint, from
    which any entity is one ``nav`` away.

    Raises:
        ProblemError: if an observed fact names an unknown object or predicate.
        InconsistentStateError: if observed facts contradict each other (a door opened and closed).
    """
    facts = {f for f in state_from(observed) if f.predicate not in domain.static_predicates}
    _check_facts(facts, problem.objects, domain, "observed fact")
    check_consistent(facts, "the observed state")
    statics = {f for f in problem.init if f.predicate in domain.static_predicates}
    return _with_derived(facts | statics, problem.objects, domain)


def problem_from_facts(
    facts: Iterable[FactLike],
    goal: Iterable[FactLike],
    objects: Mapping[str, str],
    domain: Domain,
    name: str = "observed",
) -> Problem:
    """A problem from a set of facts (static ones included) and a goal, e.g. a simulator's snapshot."""
    state = state_from(facts)
    _check_facts(state, objects, domain, "fact")
    problem = Problem(name, dict(objects), _with_derived(set(state), objects, domain), state_from(goal))
    check_problem(problem, domain)
    return problem


def _with_derived(facts: set[Fact], objects: Mapping[str, str], domain: Domain) -> State:
    preds = domain.predicates
    held = {f.args[0] for f in facts if f.predicate == "holding"}
    if "hand_empty" in preds and not held:
        facts.add(fact("hand_empty"))
    if "on_surface" in preds:
        contained = {f.args[0] for f in facts if f.predicate == "in"}
        for handle, typ in objects.items():
            if domain.is_subtype(typ, "movable") and handle not in held and handle not in contained:
                facts.add(fact("on_surface", handle))
    if domain.has_navigation and not any(f.predicate == "robot_at" for f in facts):
        origin = [h for h, t in objects.items() if t == "waypoint"]
        if origin:
            facts.add(fact("robot_at", origin[0]))
    return frozenset(facts)


def _check_facts(facts: Iterable[Fact], objects: Mapping[str, str], domain: Domain, what: str) -> None:
    for f in sorted(facts):
        if f.predicate not in domain.predicates:
            raise ProblemError(
                f"{what} {f}: unknown predicate {f.predicate!r}; domain {domain.name!r} declares "
                f"{sorted(domain.predicates)}"
            )
        types = domain.predicates[f.predicate]
        if len(f.args) != len(types):
            raise ProblemError(f"{what} {f}: {f.predicate} takes {len(types)} argument(s) {list(types)}")
        for i, (arg, want) in enumerate(zip(f.args, types, strict=True)):
            if arg not in objects:
                raise ProblemError(f"{what} {f}: unknown object {arg!r}; known objects: {sorted(objects)}")
            if not domain.is_subtype(objects[arg], want):
                raise ProblemError(
                    f"{what} {f}: argument {i + 1} {arg!r} is a {objects[arg]}; {f.predicate} takes a {want}"
                )


def check_problem(problem: Problem, domain: Domain) -> None:
    """Check object types, init and goal facts against ``domain``.

    Raises:
        ProblemError: naming the object or fact at fault and what is accepted.
        InconsistentStateError: if initial facts contradict each other.
    """
    for handle, typ in problem.objects.items():
        if typ not in domain.types:
            raise ProblemError(
                f"object {handle!r}: unknown type {typ!r}; domain types: {sorted(domain.types)}"
            )
    _check_facts(problem.init, problem.objects, domain, "init fact")
    _check_facts(problem.goal, problem.objects, domain, "goal fact")
    check_consistent(problem.init, "the initial state")


def write_problem(problem: Problem, domain: Domain, path: str | Path | None = None) -> str:
    """The problem as PDDL text (written to ``path`` if given), with handles mapped to safe names.

    Handles that are not valid PDDL names are renamed (see :class:`NameMap`); a comment at the top lists
    them. :func:`load_problem` with the same handles maps them back.
    """
    names = NameMap.for_handles(problem.objects)

    def atom(f: Fact) -> str:
        return "(" + " ".join([f.predicate, *(names.pddl(a) for a in f.args)]) + ")"

    by_type: dict[str, list[str]] = {}
    for handle, typ in sorted(problem.objects.items()):
        by_type.setdefault(typ, []).append(names.pddl(handle))
    label = (
        problem.name if is_safe_name(problem.name) else NameMap.for_handles([problem.name]).pddl(problem.name)
    )
    lines = ["; written by the tpsrl planner"]
    lines += [f"; object {h!r} is named {n}" for h, n in sorted(names.renamed.items())]
    lines += [f"(define (problem {label})", f"  (:domain {domain.name})", "  (:objects"]
    lines += [f"    {' '.join(objs)} - {typ}" for typ, objs in sorted(by_type.items())]
    lines += ["  )", "  (:init"]
    lines += [f"    {atom(f)}" for f in sorted(problem.init)]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {atom(f)}" for f in sorted(problem.goal)]
    lines += ["  ))", ")", ""]
    text = "\n".join(lines)
    if path is not None:
        Path(path).write_text(text, encoding="utf-8")
    return text


class _GuardedProblemListener(ProblemListener):
    """pddlpy's problem listener, recording goal connectives it would silently misread as positive atoms."""

    def __init__(self) -> None:
        super().__init__()
        self.refused: list[tuple[int, str]] = []

    def enterGoalDesc(self, ctx):  # noqa: N802 - ANTLR callback name
        if ctx.getChildCount() > 1:
            word = ctx.getChild(1).getText().lower()
            if word in ("not", "or", "imply", "exists", "forall", "preference"):
                self.refused.append((ctx.start.line, word))


def load_problem(path: str | Path, domain: Domain, handles: Iterable[str] | None = None) -> Problem:
    """Read a PDDL problem file; ``handles`` (the original object handles, if any) undo the renaming.

    Raises:
        PddlError: syntax errors, negated or disjunctive goals, or facts that do not fit ``domain``,
            with the file and line.
    """
    path = Path(path)
    text = path.read_text(encoding="utf-8")
    listener = parse_pddl(text, path, "problem", _GuardedProblemListener())
    if listener.refused:
        line, word = listener.refused[0]
        raise PddlError(
            path,
            line,
            f"goal uses ({word} ...), which pddlpy would read as a positive fact; accepted: a conjunction of "
            "positive facts (write (closed fridge), not (not (opened fridge)))",
        )
    declared = re.search(r"\(:domain\s+([^\s()]+)", text, flags=re.IGNORECASE)
    if declared and declared.group(1).lower() != domain.name.lower():
        raise PddlError(
            path,
            line_of(text, r"\(:domain"),
            f"problem is for domain {declared.group(1)!r}, but it was loaded with domain {domain.name!r}",
        )
    names = NameMap.for_handles(handles) if handles is not None else NameMap()

    def to_fact(atom: object) -> Fact:
        pred, *args = atom.predicate  # type: ignore[attr-defined]
        return Fact(pred, tuple(names.handle(a) for a in args))

    objects = {names.handle(n): (t or "object") for n, t in listener.objects.items()}
    m = re.search(r"\(\s*problem\s+([^\s()]+)", text, flags=re.IGNORECASE)
    problem = Problem(
        m.group(1) if m else path.stem,
        objects,
        frozenset(to_fact(a) for a in listener.initialstate),
        frozenset(to_fact(a) for a in listener.goals),
    )
    try:
        check_problem(problem, domain)
    except ProblemError as exc:
        # Point at the first line that mentions the offending fact or object.
        token = re.findall(r"'([^']+)'", str(exc))
        pattern = re.escape(names.to_pddl.get(token[0], token[0])) if token else r"\(:init"
        raise PddlError(path, line_of(text, rf"(?<![\w-]){pattern}(?![\w-])"), str(exc)) from None
    return problem
