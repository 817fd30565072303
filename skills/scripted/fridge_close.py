"""Scripted close fridge (privileged): push the open door's outer face shut with the resting cup; no
grasp (HAB disables the grip for close).

The stand is searched: a contact point on the outer face (`ALONG` metres from the hinge) and a base
heading off the face normal by up to ~70 degrees, the first whose base position is free (the path grid
sees the door) and whose arm line reaches the contact without crossing the door. Square to the face is
preferred; the oblique stands serve doors opened toward a nearby wall, where only the arm fits between
door and wall. The base then steers the cup (look-ahead point) along the closing arc until the door is
shut, backs off, and the controller stops.
"""

from __future__ import annotations

import math

import numpy as np

from tpsrl.sim.mujoco import layout as L

from .articulated import finish, furniture
from .control import REST_JOINTS, Actions, Robot, ScriptedSkill, go_stand
from .doorpath import grid_without, open_parts
from .fridge import door_point, hinge
from .steer import steer_cup

CLOSED_AIM = 0.015
ALONG = (0.55, 0.65, 0.75)  # contact points: metres from the hinge along the door (handle at 0.73)
TURNS = (0.0, 0.3, -0.3, 0.6, -0.6, 0.9, -0.9, 1.2, -1.2)  # base heading off the face normal (rad)
CUP_REST = 0.51  # the resting cup's distance ahead of the base centre (m)
CUP_RADIUS = 0.018
STAND_GAP = 0.1  # the cup starts this far off the face (m)
ARM_CLEAR = 0.06  # the arm line keeps this far from the door panel (m)
CLOSE_SPEED = 0.8  # cup speed along the closing arc (m/s)


def door_normal(r: Robot) -> np.ndarray:
    """World unit normal (x, y) of the door's outer face."""
    yaw = furniture(r, "fridge").yaw + r.b.articulation("fridge")
    return np.array([math.cos(yaw), math.sin(yaw)])


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    ab = b - a
    t = float(np.clip(np.dot(p - a, ab) / float(ab @ ab), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * ab)))


def arm_clear(base: np.ndarray, cup: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """The straight arm line base -> cup keeps `ARM_CLEAR` from the door panel a-b (all but its tip)."""
    return all(_seg_dist(base + t * (cup - base), a, b) > ARM_CLEAR for t in np.linspace(0.0, 0.85, 12))


def closing_stand(r: Robot) -> tuple[np.ndarray, float, bool]:
    """(base position, contact distance along the door, feasible) of the first feasible stand (module
    doc); with none feasible, the square stand at the first contact point and False."""
    b = r.b
    state = {n: b.articulation(n) for n in dict(b.spec.articulations)}
    grid = grid_without(b.spec.layout, open_parts(b.spec.layout, state))
    n = door_normal(r)
    a, e = hinge(r), door_point(r, 0.8, 0.0)
    for along in ALONG:
        cup = door_point(r, along, STAND_GAP)
        for turn in TURNS:
            c, s = math.cos(turn), math.sin(turn)
            heading = -np.array([c * n[0] - s * n[1], s * n[0] + c * n[1]])
            base = cup - CUP_REST * heading
            i, j = int(base[0] / L.GRID_RES), int(base[1] / L.GRID_RES)
            free = 0 <= i < grid.shape[0] and 0 <= j < grid.shape[1] and bool(grid[i, j])
            if free and arm_clear(base, cup, a, e):
                return base, along, True
    return door_point(r, ALONG[0], 0.0) + (CUP_REST + STAND_GAP) * n, ALONG[0], False


def door_gap(r: Robot, along: float) -> float:
    """Distance (m) between the cup's surface and the door's outer face (negative: pressing)."""
    return float(np.dot(r.cup_pos()[:2] - door_point(r, along, 0.0), door_normal(r))) - CUP_RADIUS


def closing_velocity(r: Robot) -> np.ndarray:
    """Cup velocity (m/s, world x, y) pushing the door shut: into its face, slowing near closed."""
    q = r.b.articulation("fridge")
    return -CLOSE_SPEED * max(0.2, min(1.0, q / 0.4)) * door_normal(r)


class CloseFridge(ScriptedSkill):
    """Scripted close-fridge controller (privileged; module doc)."""

    skill = "close_fridge"

    def plan(self, r: Robot) -> Actions:
        b = r.b
        start = b.ee_pos_world.copy()
        rest = lambda: r.joints_to(REST_JOINTS)  # noqa: E731
        r.grip = -1.0
        shut = lambda: b.articulation("fridge") <= CLOSED_AIM  # noqa: E731
        if not r.has_base:
            for _ in range(150):
                if shut():
                    break
                yield r.flat(r.cup_to(np.array([*door_point(r, ALONG[0], -0.1), 1.0])))
            yield from finish(r, start, None)
            return
        stand, along, _ = closing_stand(r)
        # the door is to be pushed shut: no wide berth around it (that detours to the oblique stands)
        yield from go_stand(r, stand, door_point(r, along, STAND_GAP), rest, tol=0.1, pass_wide=False)
        on_face = lambda: np.array([*door_point(r, along, 0.0), 1.0])  # noqa: E731
        touching = lambda: door_gap(r, along) < 0.02  # noqa: E731  (the gripper body may lead the cup)
        yield from steer_cup(r, on_face, rest, touching, 40, gain=4.0, speed=0.5)
        yield from steer_cup(r, on_face, rest, shut, 120, feed=lambda: closing_velocity(r), gain=2.0)
        yield from finish(r, start, np.array([-0.3, 0.0]))
