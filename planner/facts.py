"""Facts, states, grounded actions and plans: the plain data the planner reads and returns.

A simulator backend describes its state as tuples such as ``("holding", "bowl")``,
``("in", "apple", "fridge")``, ``("opened", "fridge")`` or ``("robot_at", "drawer_0")``;
:meth:`Fact.from_tuple` and :func:`state_from` turn those into a :data:`State` (a frozenset of facts).
Nothing here knows about PDDL files or a simulator.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeAlias, Union

__all__ = [
    "Fact",
    "FactLike",
    "GroundAction",
    "InvalidPlanError",
    "NoPlan",
    "Plan",
    "PlanResult",
    "State",
    "fact",
    "simulate",
    "state_from",
]


@dataclass(frozen=True, order=True, slots=True)
class Fact:
    """A ground atom: a predicate applied to object handles, e.g. ``Fact("in", ("apple", "fridge"))``."""

    predicate: str
    args: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not isinstance(self.predicate, str) or not self.predicate:
            raise ValueError(f"fact predicate must be a non-empty string, got {self.predicate!r}")
        if not isinstance(self.args, tuple) or not all(isinstance(a, str) and a for a in self.args):
            raise ValueError(
                f"fact {self.predicate!r}: arguments must be a tuple of non-empty strings, got {self.args!r}"
            )

    @classmethod
    def from_tuple(cls, atom: Sequence[str]) -> Fact:
        """Build a fact from ``(predicate, *args)``, the form simulator backends produce."""
        if isinstance(atom, str) or len(atom) == 0:
            raise ValueError(f"a fact tuple is (predicate, *args), e.g. ('holding', 'bowl'); got {atom!r}")
        return cls(str(atom[0]), tuple(str(a) for a in atom[1:]))

    def to_tuple(self) -> tuple[str, ...]:
        """The ``(predicate, *args)`` form, the inverse of :meth:`from_tuple`."""
        return (self.predicate, *self.args)

    def __str__(self) -> str:
        return "(" + " ".join(self.to_tuple()) + ")"


#: A fact or its tuple form; every public function that takes facts accepts both.
FactLike: TypeAlias = Union[Fact, Sequence[str]]  # noqa: UP007 - runtime alias must work on 3.10

#: A symbolic state: the set of facts that hold (closed world: anything absent is false).
State: TypeAlias = frozenset[Fact]


def fact(predicate: str, *args: str) -> Fact:
    """Shorthand constructor: ``fact("in", "apple", "fridge")``."""
    return Fact(predicate, tuple(args))


def state_from(facts: Iterable[FactLike]) -> State:
    """Turn facts or ``(predicate, *args)`` tuples into a :data:`State`."""
    return frozenset(f if isinstance(f, Fact) else Fact.from_tuple(f) for f in facts)


@dataclass(frozen=True, slots=True)
class GroundAction:
    """An action schema with every parameter bound to an object handle.

    Attributes:
        name: the schema name in the domain, e.g. ``"pick_from"``.
        args: the bound handles in parameter order, e.g. ``("apple", "fridge")``.
        pre: facts that must hold before (positive STRIPS preconditions).
        add: facts made true.
        delete: facts made false (applied before ``add``, as in STRIPS).
    """

    name: str
    args: tuple[str, ...]
    pre: frozenset[Fact]
    add: frozenset[Fact]
    delete: frozenset[Fact]

    def applicable(self, state: State) -> bool:
        return self.pre <= state

    def apply(self, state: State) -> State:
        return (state - self.delete) | self.add

    def __str__(self) -> str:
        return f"{self.name}({', '.join(self.args)})"


class InvalidPlanError(ValueError):
    """A plan step whose preconditions do not hold in the state reached so far."""

    def __init__(self, step: int, action: GroundAction, missing: frozenset[Fact]) -> None:
        self.step = step
        self.action = action
        self.missing = missing
        facts = ", ".join(str(f) for f in sorted(missing))
        super().__init__(f"plan step {step} {action}: preconditions do not hold: {facts}")


def simulate(state: State, actions: Iterable[GroundAction]) -> State:
    """Apply ``actions`` in order from ``state``, checking each precondition.

    Raises:
        InvalidPlanError: naming the first step (0-based) whose preconditions are not met.
    """
    for step, action in enumerate(actions):
        if not action.applicable(state):
            raise InvalidPlanError(step, action, action.pre - state)
        state = action.apply(state)
    return state


@dataclass(frozen=True, slots=True)
class Plan:
    """An optimal sequence of grounded actions (one skill call each).

    Attributes:
        actions: the steps in execution order.
        expanded: search nodes expanded to find it.
        seconds: wall time spent grounding and searching.
    """

    actions: tuple[GroundAction, ...]
    expanded: int = 0
    seconds: float = 0.0

    @property
    def solved(self) -> bool:
        return True

    def __len__(self) -> int:
        return len(self.actions)

    def __iter__(self) -> Iterator[GroundAction]:
        return iter(self.actions)

    def __str__(self) -> str:
        return "\n".join(f"{i:2d}. {a}" for i, a in enumerate(self.actions))


@dataclass(frozen=True, slots=True)
class NoPlan:
    """The search proved that the goal cannot be reached, or gave up; says which goal facts are at fault.

    Attributes:
        unreachable: goal facts that no sequence of actions can make true, even ignoring delete effects.
            Empty when every goal fact is reachable on its own but not all of them together (or when
            the search hit its expansion limit).
        goal: the full goal, for the message.
        reason: a one-line explanation for users.
        expanded: search nodes expanded before giving up.
        half_open: receptacles that are neither opened nor closed (no action applies to them) when they
            are why the goal cannot be reached; ``reason`` then names the skill that would fix each.
    """

    unreachable: tuple[Fact, ...]
    goal: tuple[Fact, ...]
    reason: str
    expanded: int = 0
    half_open: tuple[str, ...] = ()

    @property
    def solved(self) -> bool:
        return False

    def __len__(self) -> int:
        return 0

    def __str__(self) -> str:
        return f"no plan: {self.reason}"


#: What the search returns: check ``result.solved`` (or ``isinstance(result, Plan)``).
PlanResult: TypeAlias = Union[Plan, NoPlan]  # noqa: UP007
