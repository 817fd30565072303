"""Scripted open/close fridge: grasp the door handle and back away turning (open; the suction holds the
handle like a ball joint so the door turns in the grip), or push the open door's outer face shut with
the resting arm (close; no grasp)."""

from __future__ import annotations

import math

import numpy as np

from .articulated import OPEN_TARGET, finish, front_axis, furniture, grasp_handle
from .control import REST_JOINTS, Actions, Robot, ScriptedSkill, go_stand
from .posture import posture
from .steer import steer_cup

OPEN_AIM = OPEN_TARGET["fridge"] + 0.04
CLOSED_AIM = 0.015
CUP_X = 0.6  # the cup's distance ahead of the base centre in the handle-ready posture (m)
READY_AXIS = np.array([0.64, 0.0, -0.77])  # gripper 50 deg below horizontal: the cup leads the gripper body

HANDLE_FRONT = 0.033  # cup centre off the handle's site when touching its front face (m)
SWING_SPEED = 0.9  # speed of the cup along the door's arc while opening (m/s)


def door_point(r: Robot, along: float, out: float) -> np.ndarray:
    """World (x, y) of a point on the door: `along` metres from the hinge toward the free edge,
    `out` metres off its outer face."""
    f = furniture(r, "fridge")
    k = f.spec
    th = r.b.articulation("fridge")
    c, s = math.cos(th), math.sin(th)
    lx, ly = 0.05 + out, -along  # door frame: outer face at +x, panel along -y
    hx, hy = k.depth / 2 + c * lx - s * ly, k.width / 2 + s * lx + c * ly
    return np.array(f.to_world(hx, hy))


def hinge(r: Robot) -> np.ndarray:
    """World (x, y) of the door's hinge axis."""
    f = furniture(r, "fridge")
    return np.array(f.to_world(f.spec.depth / 2, f.spec.width / 2))


def opening_direction(r: Robot) -> np.ndarray:
    """World unit vector (x, y, 0) along which the handle moves as the door opens (its arc's tangent)."""
    rel = r.b.handle_pos("fridge")[:2] - hinge(r)
    t = np.array([-rel[1], rel[0], 0.0])
    return t / float(np.linalg.norm(t))


class OpenFridge(ScriptedSkill):
    """Scripted open-fridge controller (privileged): the arm stays in its resting posture (the cup is at
    the handle's height there); the base brings the cup onto the handle, then moves it along the door's
    arc (look-ahead point steering) until the door is open; release, back off, stop."""

    skill = "open_fridge"

    def plan(self, r: Robot) -> Actions:
        b = r.b
        start = b.ee_pos_world.copy()
        out = front_axis(furniture(r, "fridge"))
        q_ready = posture(b.model, b.data, np.array([CUP_X, 0.0, 1.0]), READY_AXIS)
        rest = lambda: r.joints_to(q_ready)  # noqa: E731
        r.grip = -1.0
        if r.has_base:
            stand = b.handle_pos("fridge")[:2] + (CUP_X + HANDLE_FRONT + 0.1) * out[:2]
            yield from go_stand(r, stand, b.handle_pos("fridge"), rest, tol=0.1)
        r.grip = 1.0
        if r.has_base:
            on = lambda: b.handle_pos("fridge") + (HANDLE_FRONT - 0.01) * out  # noqa: E731
            yield from steer_cup(r, on, rest, lambda: b.held == "fridge", 60, gain=4.0, speed=0.5)
        else:
            yield from grasp_handle(r, "fridge", out)
        opened = lambda: b.held != "fridge" or b.articulation("fridge") >= OPEN_AIM  # noqa: E731
        if r.has_base:
            feed = lambda: SWING_SPEED * opening_direction(r)  # noqa: E731
            yield from steer_cup(r, r.cup_pos, rest, opened, 120, feed=feed, gain=0.0)
        yield from finish(r, start, np.array([-0.3, 0.0]))


class CloseFridge(ScriptedSkill):
    """Scripted close-fridge controller (privileged): plans a path that sees the open door (to its outer
    side), puts the resting cup against the door's outer face, then steers the cup along the closing
    arc with the base (look-ahead point) until the door is shut; backs off, stops. No grasp (HAB)."""

    skill = "close_fridge"

    def plan(self, r: Robot) -> Actions:
        b = r.b
        start = b.ee_pos_world.copy()
        rest = lambda: r.joints_to(REST_JOINTS)  # noqa: E731
        r.grip = -1.0
        if not r.has_base:
            for _ in range(150):
                if b.articulation("fridge") <= CLOSED_AIM:
                    break
                yield r.flat(r.cup_to(np.array([*door_point(r, EDGE, -0.1), 1.0])))
            yield from finish(r, start, None)
            return
        yield from reach_outer_side(r, rest)
        on_face = lambda: np.array([*door_point(r, EDGE, 0.0), 1.0])  # noqa: E731
        touching = lambda: door_gap(r) < 0.02  # noqa: E731  (the gripper body may lead the cup)
        yield from steer_cup(r, on_face, rest, touching, 40, gain=4.0, speed=0.5)
        shut = lambda: b.articulation("fridge") <= CLOSED_AIM  # noqa: E731
        yield from steer_cup(r, on_face, rest, shut, 120, feed=lambda: closing_velocity(r), gain=2.0)
        yield from finish(r, start, np.array([-0.3, 0.0]))


def reach_outer_side(r: Robot, arm) -> Actions:
    """Drive (the path sees the door) to stand `CUP_REST + 0.12` m off the door's outer face at `EDGE`,
    facing it."""
    stand = door_point(r, EDGE, 0.0) + (CUP_REST + 0.12) * door_normal(r)
    yield from go_stand(r, stand, door_point(r, EDGE, 0.0), arm, tol=0.1)


def door_gap(r: Robot) -> float:
    """Distance (m) between the cup's surface and the door's outer face (negative: pressing)."""
    n = door_normal(r)
    return float(np.dot(r.cup_pos()[:2] - door_point(r, EDGE, 0.0), n)) - CUP_RADIUS


def closing_velocity(r: Robot) -> np.ndarray:
    """Cup velocity (m/s, world x, y) pushing the door shut: into its face, slowing near closed."""
    q = r.b.articulation("fridge")
    return -CLOSE_SPEED * max(0.2, min(1.0, q / 0.4)) * door_normal(r)


EDGE = 0.55  # contact point: metres from the hinge along the door (clear of the handle at 0.73)
CUP_REST = 0.51  # the resting cup's distance ahead of the base centre (m)
CUP_RADIUS = 0.018
CLOSE_SPEED = 0.8  # cup speed along the closing arc (m/s)


def door_normal(r: Robot) -> np.ndarray:
    """World unit normal (x, y) of the door's outer face."""
    yaw = furniture(r, "fridge").yaw + r.b.articulation("fridge")
    return np.array([math.cos(yaw), math.sin(yaw)])
