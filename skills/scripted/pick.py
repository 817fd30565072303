"""Scripted pick: drive in close (base on), hover over the object, suction it from above, lift it, rest.

The arm is slow (0.0125 rad a step) and the base fast, so the base does the long moves. On an open
surface the robot (1) stands facing the object where the resting arm stays clear of a tall surface
(`clearance.Stand.far`), (2) drives straight in to the closest stand while the arm goes to a posture
(solved ahead) holding the cup just above where the object's top will be, waiting at the surface's edge
until the arm is high enough to pass over what stands there, (3) hovers over
the object and descends with suction on until it holds it, (4) lifts it and returns the arm to rest
while the base backs out from over a tall surface (the resting arm, with the object under it, would be
inside it). Objects inside the fridge or a drawer are reached from in front of the opening. Within
the 200-step skill limit of a HAB episode (hab-reference "Skill execution").

Termination (HAB skill execution): holding the object with the EE within 0.15 m of rest.
"""

from __future__ import annotations

import numpy as np

from tpsrl.sim.mujoco.objects import object_type
from tpsrl.sim.sensors import REST_EE

from .articulated import CONTAINERS, container_front
from .clearance import arm_over_tall
from .control import (
    REST_JOINTS,
    REST_TOL,
    Actions,
    Robot,
    ScriptedSkill,
    approach_line,
    cup_reach,
    go_stand,
    retreat,
    stand_for,
    to_rest,
)

CUP_AHEAD = (0.45, 0.85)  # the cup drives in this far ahead of the base centre (m)
HOVER = 0.08  # pre-grasp height above the object's top (m)
LIFT = 0.08  # after the grasp the cup rises this much before heading to rest (m)
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


def drive_in(r: Robot, point: np.ndarray, cup_z: float) -> Actions:
    """`approach_line` to `point`: the cup raised (to `cup_z` if above rest) on the way, then moving
    (Cartesian) to height `cup_z` over where the point will be while the base drives in; the base waits
    while its arm would reach over a tall surface before the cup is there."""
    b, layout = r.b, r.b.spec.layout
    st = stand_for(r, point)  # the arm ends the approach `ahead` of the base by its distance
    dist = r.planar_dist(point) if st is None else float(np.linalg.norm(st.close - point[:2]))
    target = np.array([float(np.clip(dist, *CUP_AHEAD)), 0.0, cup_z])  # base frame
    raised = np.array([REST_EE[0], 0.0, max(cup_z, float(REST_EE[2]))])

    def there(tol: float = 0.04) -> bool:
        return float(np.linalg.norm(b.world_to_base(r.cup_pos()) - target)) < tol

    yield from approach_line(
        r,
        point,
        st,
        lambda: r.cup_to(r.base_point(raised)),
        lambda: r.cup_to(r.base_point(target)),
        lambda: there() or not arm_over_tall(layout, b.base_pose),
    )


def approach_object(r: Robot, handle: str, top_z: float) -> Actions:
    """Get the object within a short reach: in front of a container's opening, else `drive_in`."""
    point = r.b.object_pos(handle)
    rec = next(o.receptacle for o in r.b.spec.objects if o.handle == handle)
    front = container_front(r, rec, point, CONTAINER_STAND)
    if front is not None:
        yield from go_stand(r, front, point, tol=0.05)
    else:
        yield from drive_in(r, point, top_z + HOVER)


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


def lift_out(r: Robot) -> Actions:
    """Lift the held object `LIFT` straight up, then back out from over a tall surface with the arm as it
    is: the held object hangs below the cup, and lowered toward rest over the surface it sweeps what
    stands there."""
    top = r.cup_pos() + np.array([0.0, 0.0, LIFT])
    yield from cup_reach(r, lambda: top, lambda: r.cup_pos()[2] > top[2] - 0.015, 20)
    if r.has_base:
        yield from retreat(r, lambda: np.zeros(7), 40)


class Pick(ScriptedSkill):
    """Scripted pick controller (privileged)."""

    skill = "pick"

    def plan(self, r: Robot) -> Actions:
        h = target_handle(r)
        r.grip = -1.0
        if r.has_base:
            yield from approach_object(r, h, float(r.b.object_pos(h)[2]) + half_height(r, h) + 0.012)
        yield from grasp_from_above(r, h)
        if r.b.held != h:
            return  # nothing (or the wrong thing) grasped: give up, the task scores it
        if r.has_base and in_container(r, h):  # pull the object out of the opening before lifting it
            self._clear = True
            for _ in range(BACK_OFF_STEPS):
                yield r.flat(np.zeros(7), np.array([-0.2, 0.0]))
            yield from to_rest(r)
            return
        yield from lift_out(r)
        self._clear = True  # the skill may end only once the held object is off the surface
        if not r.has_base:
            yield from to_rest(r)
            return
        for _ in range(120):
            yield r.flat(r.joints_to(REST_JOINTS))

    def reset(self, env) -> None:
        super().reset(env)
        self._clear = False

    def terminated(self, r: Robot) -> bool:
        return self._clear and r.b.held == target_handle(r) and r.rest_dist() < REST_TOL
