"""Why a goal is out of reach when the cause is a half-open door, and which skill would fix it.

The simulator reports ``opened`` above a threshold and ``closed`` near zero, so a door or drawer in
between (half open) has neither fact. No action of the rearrange domains applies to it (opening needs
``closed``, closing needs ``opened``, taking or putting things inside needs ``opened``), so a goal that
needs it is unreachable; saying only "no action sequence can make (object_at ...) true" would hide the
cause. :func:`explain_half_open` names the receptacle and the skill that would make the goal reachable.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence

from planner.domain import Domain
from planner.facts import Fact, GroundAction, State
from planner.skills import skill_call

__all__ = ["explain_half_open", "half_open"]


def half_open(state: State, objects: Mapping[str, str], domain: Domain) -> tuple[str, ...]:
    """Receptacles for which neither ``opened`` nor ``closed`` holds in ``state``."""
    if "opened" not in domain.predicates or "closed" not in domain.predicates:
        return ()
    (kind,) = domain.predicates["opened"]
    return tuple(
        sorted(
            h
            for h, t in objects.items()
            if domain.is_subtype(t, kind) and not {Fact("opened", (h,)), Fact("closed", (h,))} & state
        )
    )


def explain_half_open(
    init: State,
    goal: Iterable[Fact],
    receptacles: Sequence[str],
    actions: Sequence[GroundAction],
    reachable: Callable[[State], frozenset[Fact]],
) -> str:
    """One sentence per half-open receptacle: what is wrong and which skill would make ``goal`` reachable.

    Args:
        init: the state planned from.
        goal: the goal facts.
        receptacles: the half-open receptacles (see :func:`half_open`).
        actions: the grounded actions (to find the skill that opens or closes each receptacle).
        reachable: facts reachable from a state ignoring deletes (``relaxed_reachable`` over ``actions``).
    """
    goal = frozenset(goal)
    parts = []
    for r in receptacles:
        # The state the goal asks for first, else opened (things inside are reachable), else closed.
        order = sorted(("opened", "closed"), key=lambda p: (Fact(p, (r,)) not in goal, p != "opened"))
        fix = next((p for p in order if goal <= reachable(init | {Fact(p, (r,))})), None)
        if fix is None:
            advice = "the goal stays out of reach even with it opened or closed"
        else:
            skill = _skill_making(Fact(fix, (r,)), actions)
            advice = f"running {skill} (to make it {fix}) would make the goal reachable"
        parts.append(f"{r} is half open (neither opened nor closed), so no action can use it; {advice}")
    return "; ".join(parts)


def _skill_making(fact: Fact, actions: Sequence[GroundAction]) -> str:
    for action in actions:
        if fact in action.add:
            return skill_call(action).skill
    return f"a skill that makes {fact}"
