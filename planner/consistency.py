"""Physically impossible states: facts that cannot hold together in the rearrange domains.

A simulator never reports a door both opened and closed, but a hand-written problem, a stale observation
merged with a new one, or a grounding bug can. Planning from such a state gives plans that cannot run
(pick from a fridge that is "opened" and "closed"), so :func:`contradictions` finds them and the problem
functions refuse them, naming the facts.

The rules, each checked only where the domain declares the predicates:

* a receptacle is ``opened``, ``closed`` or neither (half open), never both;
* the hand is ``hand_empty`` or ``holding`` one object, never both and never two objects;
* an object is held, ``in`` one receptacle or ``on_surface``: exactly one place at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from planner.facts import Fact

__all__ = ["Contradiction", "contradictions"]


@dataclass(frozen=True)
class Contradiction:
    """Facts that cannot all hold, and the rule they break."""

    facts: tuple[Fact, ...]
    rule: str

    def __str__(self) -> str:
        return f"{' and '.join(map(str, self.facts))}: {self.rule}"


def contradictions(facts: Iterable[Fact]) -> list[Contradiction]:
    """Every broken rule of the module docstring in ``facts`` (an empty list for a consistent state)."""
    state = set(facts)
    return _doors(state) + _hand(state) + _places(state)


def _doors(state: set[Fact]) -> list[Contradiction]:
    rule = "a receptacle is opened, closed or neither (half open), never both"
    return [
        Contradiction((Fact("closed", f.args), f), rule)
        for f in sorted(state)
        if f.predicate == "opened" and Fact("closed", f.args) in state
    ]


def _hand(state: set[Fact]) -> list[Contradiction]:
    held = tuple(sorted(f for f in state if f.predicate == "holding"))
    found = []
    if len(held) > 1:
        found.append(Contradiction(held, "the robot holds at most one object"))
    if held and Fact("hand_empty") in state:
        found.append(
            Contradiction((Fact("hand_empty"), *held), "the hand is empty or holds an object, not both")
        )
    return found


def _places(state: set[Fact]) -> list[Contradiction]:
    places: dict[str, list[Fact]] = {}
    for f in sorted(state):
        if f.predicate in ("holding", "on_surface", "in"):
            places.setdefault(f.args[0], []).append(f)
    rule = "an object is held, in one receptacle or on a surface: one place at a time"
    return [Contradiction(tuple(fs), rule) for _, fs in sorted(places.items()) if len(fs) > 1]
