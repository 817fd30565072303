"""Which skill runs each grounded action, and with which arguments.

The evaluation turns a plan into skill calls with :func:`skill_call`; learned and scripted skills share the
same names (those of the skill training tasks in hab-reference.md). ``pick`` and ``pick_from`` are one Pick
skill: whether the object lies in an (open) receptacle matters to the planner, not to the skill.
"""

from __future__ import annotations

from dataclasses import dataclass

from planner.facts import GroundAction

__all__ = ["ACTION_SKILLS", "SKILL_NAMES", "SkillCall", "skill_call"]


@dataclass(frozen=True)
class SkillCall:
    """One skill invocation.

    Attributes:
        skill: the skill name, one of :data:`SKILL_NAMES`.
        target: the entity it acts on (object to pick or place, receptacle to open, entity to reach).
        goal: for ``place`` only, the goal position to put the object at.
    """

    skill: str
    target: str
    goal: str | None = None

    def __str__(self) -> str:
        return f"{self.skill}({self.target}{', ' + self.goal if self.goal else ''})"


#: Domain action name -> (skill, index of the target argument, index of the goal argument or None).
ACTION_SKILLS: dict[str, tuple[str, int, int | None]] = {
    "nav": ("nav", 0, None),  # nav(?to): the robot ends next to ?to only
    "pick": ("pick", 0, None),
    "pick_from": ("pick", 0, None),
    "place": ("place", 0, 1),
    "place_in": ("place", 0, 1),
    "open_fridge": ("open_fridge", 0, None),
    "close_fridge": ("close_fridge", 0, None),
    "open_drawer": ("open_drawer", 0, None),
    "close_drawer": ("close_drawer", 0, None),
}

#: Every skill a plan can call.
SKILL_NAMES: tuple[str, ...] = tuple(dict.fromkeys(s for s, _, _ in ACTION_SKILLS.values()))


def skill_call(action: GroundAction) -> SkillCall:
    """The skill call that executes ``action``, e.g. ``pick_from(apple, fridge)`` -> ``pick(apple)``.

    Raises:
        KeyError: for an action no skill implements, listing the known actions.
    """
    if action.name not in ACTION_SKILLS:
        raise KeyError(f"no skill executes action {action.name!r}; known actions: {sorted(ACTION_SKILLS)}")
    skill, target, goal = ACTION_SKILLS[action.name]
    return SkillCall(skill, action.args[target], action.args[goal] if goal is not None else None)
