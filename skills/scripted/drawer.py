"""Scripted open/close drawer: stand in front of the cabinet, grasp the handle and back away (open), or
push the drawer front shut with the cup (close; no grasp, HAB disables the grip there)."""

from __future__ import annotations

import numpy as np

from .articulated import (
    OPEN_TARGET,
    finish,
    front_axis,
    furniture,
    grasp_handle,
    stand_in_front,
    target_articulation,
)
from .control import Actions, Robot, ScriptedSkill, go_stand, hold_rest

OPEN_AIM = OPEN_TARGET["drawer"] + 0.02
CLOSED_AIM = 0.015
PULL_SPEED = 0.4  # base command while pulling (x 2.5 m/s)
STAND = {"drawer_0": 0.75, "drawer_1": 0.65}  # base distance from the closed handle (low drawer: closer)


def approach_handle(r: Robot, name: str, out: np.ndarray, extra: float, pre: float) -> Actions:
    """Stand in front of the handle (`extra` metres further out), the cup moving to a pre-grasp point
    `pre` metres in front of the handle once the base is close."""
    b = r.b
    stand = stand_in_front(r, b.handle_pos(name), out, STAND.get(name, 0.7) + extra)

    def arm() -> np.ndarray:
        if r.planar_dist(stand) < 0.5:
            return r.cup_to(b.handle_pos(name) + pre * out)
        return hold_rest(r)

    if r.has_base:
        yield from go_stand(r, stand, b.handle_pos(name), arm)


class OpenDrawer(ScriptedSkill):
    """Scripted open-drawer controller (privileged)."""

    skill = "open_drawer"

    def plan(self, r: Robot) -> Actions:
        start = r.b.ee_pos_world.copy()
        name = target_articulation(r, "drawer")
        out = front_axis(furniture(r, name))
        yield from approach_handle(r, name, out, 0.0, 0.12)
        yield from grasp_handle(r, name, out)
        if r.b.held == name:
            yield from pull(r, name, out)
        yield from finish(r, start, np.array([-0.3, 0.0]))


def pull(r: Robot, name: str, out: np.ndarray, steps: int = 120) -> Actions:
    """Pull the held handle out along `out`: base backing off (arm still), or the arm alone."""
    b = r.b
    for _ in range(steps):
        if b.articulation(name) >= OPEN_AIM or b.held != name:
            return
        if r.has_base:
            yield r.flat(np.zeros(7), np.array([-PULL_SPEED, 0.0]))
        else:
            yield r.flat(r.arm_to(b.ee_pos_world + 0.05 * out))


class CloseDrawer(ScriptedSkill):
    """Scripted close-drawer controller (privileged): pushes the drawer front with the cup."""

    skill = "close_drawer"

    def plan(self, r: Robot) -> Actions:
        start = r.b.ee_pos_world.copy()
        name = target_articulation(r, "drawer")
        out = front_axis(furniture(r, name))
        r.grip = -1.0
        yield from approach_handle(r, name, out, 0.1, 0.06)
        yield from push(r, name, out)
        yield from finish(r, start, np.array([-0.3, 0.0]))


def push(r: Robot, name: str, out: np.ndarray, steps: int = 160) -> Actions:
    """Put the cup against the handle's front and push along -`out` until the drawer is shut; the base
    follows when the arm is stretched."""
    b = r.b
    for _ in range(steps):
        q = b.articulation(name)
        if q <= CLOSED_AIM:
            return
        face_pt = b.handle_pos(name) + 0.03 * out
        target = face_pt - min(0.08, q + 0.02) * out
        near = float(np.linalg.norm(r.cup_pos()[:2] - face_pt[:2])) < 0.06
        stretched = float(b.world_to_base(b.ee_pos_world)[0]) > 0.75
        base = np.array([0.15, 0.0]) if near and stretched and r.has_base else None
        yield r.flat(r.cup_to(target if near else face_pt), base)
