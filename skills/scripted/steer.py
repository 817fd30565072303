"""Steering a point on the arm with the base: the differential-drive "look-ahead point" control.

A point held `a` metres ahead of the base centre (the suction cup, arm held still) can move in any
planar direction: the linear command moves it along the heading, the angular one sideways (x a). The
open/close controllers move the cup with the base instead of the arm: onto a handle, along the fridge
door's arc or the drawer's axis, against the door's face. The arm then barely changes its posture, so
it is back at rest within a few steps after the release.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from tpsrl.sim.mujoco.sim import BASE_ANG_SPEED, BASE_LIN_SPEED

from .control import Actions, Robot

Vec = Callable[[], np.ndarray]


def point_base_command(r: Robot, point: np.ndarray, vel: np.ndarray) -> np.ndarray:
    """Base action [2] giving world point `point` (rigidly carried by the base) planar velocity `vel`.

    Solves v h + w (z x (p - base)) = vel for (linear v, angular w); scaled as a whole into [-1, 1].
    """
    x, y, yaw = r.b.base_pose
    h = np.array([math.cos(yaw), math.sin(yaw)])
    rx, ry = float(point[0]) - x, float(point[1]) - y
    A = np.array([[h[0], -ry], [h[1], rx]])
    if abs(float(np.linalg.det(A))) < 0.05:  # the point is (nearly) beside the base centre
        return np.zeros(2)
    v, w = np.linalg.solve(A, np.asarray(vel, dtype=np.float64)[:2])
    cmd = np.array([v / BASE_LIN_SPEED, w / BASE_ANG_SPEED])
    peak = float(np.abs(cmd).max())
    return cmd / peak if peak > 1.0 else cmd


def steer_cup(
    r: Robot,
    target: Vec,
    arm: Vec,
    until: Callable[[], bool],
    max_steps: int,
    feed: Vec | None = None,
    gain: float = 3.0,
    speed: float = 0.5,
    point: Vec | None = None,
) -> Actions:
    """Drive the base so the cup (or `point()`, a point the base carries) goes to `target()` (planar),
    plus a feed-forward velocity `feed()`.

    The correction `gain` x (target - cup) is capped at `speed` m/s; `arm()` gives the arm action.
    """
    for _ in range(max_steps):
        if until():
            return
        cup = r.cup_pos() if point is None else point()
        err = (target() - cup)[:2]
        corr = gain * err
        n = float(np.linalg.norm(corr))
        if n > speed:
            corr *= speed / n
        vel = corr + (feed()[:2] if feed is not None else 0.0)
        base = point_base_command(r, cup, vel) if r.has_base else None
        yield r.flat(arm(), base)
