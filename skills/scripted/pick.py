"""Scripted pick: drive within reach (base on), hover over the object, suction it from above, lift to rest.

Termination (HAB skill execution): holding the object with the EE within 0.15 m of rest.
"""

from __future__ import annotations

import numpy as np

from tpsrl.sim.mujoco.objects import object_type

from .articulated import CONTAINERS, container_front
from .control import REST_TOL, Actions, Robot, ScriptedSkill, cup_reach, drive_to, face, go_stand, to_rest

REACH = (0.35, 0.95)  # planar base-to-object distances the arm reaches from without moving the base
HOVER = 0.08  # pre-grasp height above the object's top (m)
CONTAINER_STAND = 0.42  # base distance from the fridge's or cabinet's front for objects inside (m)
BACK_OFF_STEPS = 12  # steps the base reverses after a grasp inside a container


def target_handle(r: Robot) -> str:
    spec = r.b.spec
    if not spec.targets:
        raise ValueError(
            f"episode {spec.episode_id!r}: pick/place need a target object; spec.targets is empty"
        )
    return spec.targets[0].handle


def half_height(r: Robot, handle: str) -> float:
    return object_type(next(o.type for o in r.b.spec.objects if o.handle == handle)).half_height


def in_reach(r: Robot, xy: np.ndarray, heading_tol: float = 0.35) -> bool:
    return REACH[0] <= r.planar_dist(xy) <= REACH[1] and abs(r.heading_err(xy)) < heading_tol


def standoff(height: float) -> tuple[float, float]:
    """Base distance band from a point at `height`: the resting EE (1.0 m high, 0.5 m ahead) must stop
    short of surfaces near its own height, so high surfaces are approached from further away."""
    return (0.75, 0.95) if height > 0.75 else (0.55, 0.8)


def approach(r: Robot, point: np.ndarray) -> Actions:
    """Drive to a free cell near `point` and face it, unless it is already within reach."""
    if r.has_base and not in_reach(r, point):
        yield from drive_to(r, point, standoff(float(point[2])))
        yield from face(r, point)


def approach_object(r: Robot, handle: str) -> Actions:
    """`approach` the object; one inside the fridge or a drawer from in front of the opening."""
    point = r.b.object_pos(handle)
    rec = next(o.receptacle for o in r.b.spec.objects if o.handle == handle)
    front = container_front(r, rec, point, CONTAINER_STAND)
    if front is None or not r.has_base:
        yield from approach(r, point)
        return
    yield from go_stand(r, front, point, tol=0.05)


def in_container(r: Robot, handle: str) -> bool:
    return next(o.receptacle for o in r.b.spec.objects if o.handle == handle) in CONTAINERS


def grasp_from_above(r: Robot, handle: str, steps: int = 160) -> Actions:
    """Hover over the object, then descend with suction on until it is held."""
    b = r.b
    lift = np.array([0.0, 0.0, half_height(r, handle) + 0.012])

    def top() -> np.ndarray:
        return b.object_pos(handle) + lift

    def hover() -> np.ndarray:
        return top() + np.array([0.0, 0.0, HOVER])

    r.grip = -1.0
    yield from cup_reach(r, hover, lambda: float(np.linalg.norm(r.cup_pos() - hover())) < 0.03, steps // 2)
    r.grip = 1.0
    yield from cup_reach(r, top, lambda: b.held is not None, steps)


class Pick(ScriptedSkill):
    """Scripted pick controller (privileged)."""

    skill = "pick"

    def plan(self, r: Robot) -> Actions:
        h = target_handle(r)
        yield from approach_object(r, h)
        yield from grasp_from_above(r, h)
        if r.b.held != h:
            return  # nothing (or the wrong thing) grasped: give up, the task scores it
        if r.has_base and in_container(r, h):  # pull the object out of the opening before lifting it
            for _ in range(BACK_OFF_STEPS):
                yield r.flat(np.zeros(7), np.array([-0.2, 0.0]))
        yield from to_rest(r)

    def terminated(self, r: Robot) -> bool:
        return r.b.held == target_handle(r) and r.rest_dist() < REST_TOL
