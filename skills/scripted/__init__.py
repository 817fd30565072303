"""Scripted (privileged sense-plan-act) skill controllers: the TP-SPA baseline of Habitat 2.0.

`SCRIPTED` maps each skill name to its controller class; every class implements
`skills.policy.SkillPolicy` and is built with no arguments.
"""

from __future__ import annotations

from .drawer import CloseDrawer, OpenDrawer
from .fridge import OpenFridge
from .fridge_close import CloseFridge
from .nav import NavToObj
from .pick import Pick
from .place import Place

SCRIPTED: dict[str, type] = {
    "nav_to_obj": NavToObj,
    "pick": Pick,
    "place": Place,
    "open_fridge": OpenFridge,
    "close_fridge": CloseFridge,
    "open_drawer": OpenDrawer,
    "close_drawer": CloseDrawer,
}


def make_scripted(skill: str):
    """A fresh scripted controller for `skill`; an unknown name lists the known ones."""
    try:
        return SCRIPTED[skill]()
    except KeyError:
        raise ValueError(f"skill: unknown scripted skill {skill!r}; accepted: {sorted(SCRIPTED)}") from None
