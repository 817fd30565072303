"""Scripted open/close fridge: grasp the door handle and back away turning (open; the suction holds the
handle like a ball joint so the door turns in the grip), or push the open door's outer face shut with
the resting arm (close; no grasp)."""

from __future__ import annotations

import math

import numpy as np

from .articulated import OPEN_TARGET, finish, front_axis, furniture, grasp_handle
from .control import Actions, Robot, ScriptedSkill, go_stand, hold_rest

OPEN_AIM = OPEN_TARGET["fridge"] + 0.04
CLOSED_AIM = 0.02
SWING = np.array([-0.3, 0.25])  # base command that swings the held door open (back off, turn left)


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


class OpenFridge(ScriptedSkill):
    """Scripted open-fridge controller (privileged)."""

    skill = "open_fridge"

    def plan(self, r: Robot) -> Actions:
        b = r.b
        start = b.ee_pos_world.copy()
        out = front_axis(furniture(r, "fridge"))
        stand = b.handle_pos("fridge")[:2] + 0.75 * out[:2]

        def arm() -> np.ndarray:
            if r.planar_dist(stand) < 0.5:
                return r.cup_to(b.handle_pos("fridge") + 0.12 * out)
            return hold_rest(r)

        if r.has_base:
            yield from go_stand(r, stand, b.handle_pos("fridge"), arm)
        yield from grasp_handle(r, "fridge", out)
        for _ in range(120):
            if b.held != "fridge" or b.articulation("fridge") >= OPEN_AIM or not r.has_base:
                break
            yield r.flat(np.zeros(7), SWING)
        yield from finish(r, start, np.array([-0.3, 0.0]))


class CloseFridge(ScriptedSkill):
    """Scripted close-fridge controller (privileged): drives the resting arm into the door's outer face."""

    skill = "close_fridge"

    def plan(self, r: Robot) -> Actions:
        b = r.b
        start = b.ee_pos_world.copy()
        r.grip = -1.0
        if r.has_base:
            n = door_normal(r)
            stand = door_point(r, EDGE, 0.0) + 0.85 * n
            yield from go_stand(r, stand, door_point(r, EDGE, 0.0))
        for _ in range(150):
            if b.articulation("fridge") <= CLOSED_AIM:
                break
            if r.has_base:  # drive into the door, turning to stay square to its outer face as it swings
                n = door_normal(r)
                err = (math.atan2(-n[1], -n[0]) - b.base_pose[2] + math.pi) % (2 * math.pi) - math.pi
                yield r.flat(hold_rest(r), np.array([0.3, float(np.clip(2.0 * err, -1.0, 1.0))]))
            else:
                yield r.flat(r.cup_to(np.array([*door_point(r, EDGE, -0.1), 1.0])))
        yield from finish(r, start, np.array([-0.3, 0.0]))


EDGE = 0.6  # contact point: metres from the hinge along the door


def door_normal(r: Robot) -> np.ndarray:
    """World unit normal (x, y) of the door's outer face."""
    yaw = furniture(r, "fridge").yaw + r.b.articulation("fridge")
    return np.array([math.cos(yaw), math.sin(yaw)])
