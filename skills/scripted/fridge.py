"""Scripted open fridge: grasp the door handle and move it along the door's arc with the base (the suction
holds the handle like a ball joint so the door turns in the grip). Close fridge: `fridge_close`."""

from __future__ import annotations

import math

import numpy as np

from .articulated import OPEN_TARGET, finish, front_axis, furniture, grasp_handle
from .control import Actions, Robot, ScriptedSkill, go_stand
from .posture import posture
from .steer import steer_cup

OPEN_AIM = OPEN_TARGET["fridge"] + 0.04
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
