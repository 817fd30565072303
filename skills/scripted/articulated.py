"""Shared pieces of the scripted open/close skills: receptacle geometry, handle grasp, finishing.

Termination (HAB skill execution): released, the EE back within 0.15 m of rest and out of a 0.3 m
zone around where it started the skill; where the env has a stop action the controller then calls it.
The plans end with `finish`, so a controller is done when its plan has run (or it stopped).
"""

from __future__ import annotations

import math

import numpy as np

from tpsrl.sim.mujoco import layout as L

from .control import REST_JOINTS, Actions, Robot, cup_reach, settle

AT_REST = 0.1  # stop once the EE is this close to rest (HAB success: 0.15)
START_ZONE = 0.3  # the EE must leave this radius around its position at the skill's start (m)
OPEN_TARGET = {"fridge": 1.2208, "drawer": 0.45}  # HAB open targets (rad, m)


def furniture(r: Robot, name: str) -> L.Furniture:
    """The furniture carrying articulation `name` (fridge -> fridge, drawer_i -> kitchen_cabinet)."""
    lay = L.make_layout(r.b.spec.layout)
    return lay.get("fridge" if name == "fridge" else "kitchen_cabinet")


def front_axis(f: L.Furniture) -> np.ndarray:
    """World unit vector (x, y, 0) out of the furniture's front."""
    return np.array([math.cos(f.yaw), math.sin(f.yaw), 0.0])


CONTAINERS = ("fridge", "drawer_0", "drawer_1")
"""Receptacles inside articulated furniture (objects start or end in them opened)."""


def container_front(r: Robot, receptacle: str, point: np.ndarray, stand: float) -> np.ndarray | None:
    """Where to stand for `point` inside the fridge or a drawer: `stand` metres out from the furniture's
    front, in line with the point (the arm reaches in square to the opening); None for open surfaces."""
    if receptacle not in CONTAINERS:
        return None
    f = furniture(r, receptacle)
    out = front_axis(f)[:2]
    front = np.array(f.to_world(f.spec.depth / 2, 0.0))
    lateral = point[:2] - front - float(np.dot(point[:2] - front, out)) * out
    return front + lateral + stand * out


def target_articulation(r: Robot, kind: str) -> str:
    """The articulation an open/close episode is about: `fridge`, or the drawer named by the episode.

    The drawer is the one named in the episode's articulations whose state is the furthest from the
    skill's goal (open: the most closed; close: the most open), else drawer_0.
    """
    if kind == "fridge":
        return "fridge"
    arts = dict(r.b.spec.articulations)
    drawers = [n for n in arts if n.startswith("drawer_")]
    if not drawers:
        return "drawer_0"
    return max(drawers, key=lambda n: arts[n])


def grasp_handle(r: Robot, name: str, out: np.ndarray, steps: int = 150) -> Actions:
    """Bring the cup in front of the handle (along `out`), then onto it with suction on until held."""
    b = r.b

    def pre() -> np.ndarray:
        return b.handle_pos(name) + 0.12 * out

    def on() -> np.ndarray:
        return b.handle_pos(name) + 0.005 * out

    r.grip = -1.0
    yield from cup_reach(r, pre, lambda: float(np.linalg.norm(r.cup_pos() - pre())) < 0.03, steps // 2)
    r.grip = 1.0
    yield from cup_reach(r, on, lambda: b.held == name, steps)


def finish(r: Robot, start_ee: np.ndarray, back_off: np.ndarray | None, max_steps: int = 150) -> Actions:
    """Release, return to rest (joint space) while backing off until the EE left the start zone, stop."""
    r.grip = -1.0
    yield from settle(r, 1)
    for _ in range(max_steps):
        inside = float(np.linalg.norm(r.b.ee_pos_world - start_ee)) < START_ZONE + 0.05
        if not inside and r.rest_dist() < AT_REST:
            break
        base = back_off if inside and r.has_base else None
        yield r.flat(r.joints_to(REST_JOINTS), base)
    if "rearrange_stop" in r.act.slices:
        yield r.flat(r.arm_to(r.rest_world()), stop=True)


def stand_in_front(r: Robot, point: np.ndarray, out: np.ndarray, dist: float) -> np.ndarray:
    """Base position `dist` metres out from `point` along the front axis `out`."""
    return np.asarray(point)[:2] + dist * out[:2]
