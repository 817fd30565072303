"""Scripted place: drive within reach of the goal (base on), carry the held object over its goal keeping it
upright, lower it to just above its resting height, wait until it is still, release, lift clear, rest.

The held object keeps its orientation relative to the gripper (a rigid suction weld), so the carry uses
IK on the EE position plus the object's up axis: a tall box released tilted topples, a sphere released
while the arm moves rolls away. Termination (HAB skill execution): released and the EE back within
0.15 m of rest.
"""

from __future__ import annotations

from collections.abc import Generator

import mujoco
import numpy as np

from tpsrl.sim.mujoco.objects import object_type
from tpsrl.sim.mujoco.sim import ARM_SCALE

from .articulated import CONTAINERS, container_front
from .clearance import arm_over_tall
from .control import (
    REST_JOINTS,
    REST_TOL,
    Actions,
    Robot,
    ScriptedSkill,
    approach_line,
    go_stand,
    retreat,
    retreat_command,
    settle,
    stand_for,
)
from .pick import half_height, target_handle
from .posture import posture
from .steer import steer_cup

HOVER = 0.04  # the object is carried this far above its goal (m)
AHEAD = 0.1  # the carry posture holds the object this much further ahead than at rest (m)
MAX_AHEAD = 0.4  # at most this much further ahead, for a goal deep in a surface (m)
DROP = 0.0  # released at the goal's resting height (m)
LEVEL_GAIN = 0.3  # rad of tilt correction per step fed to the IK
LEVEL_WEIGHT = 0.3  # weight of the tilt rows against the position rows (position first)
LEVEL_PATIENCE = 8  # steps without getting more upright before a placement goes on tilted
CARRY_WEIGHT = 0.1  # the same while carrying the object in: the resting wrist is near its limit, and a
# held object raised level takes 3x as long as one let tilt a little (levelled again over the goal)
DRAWER_RIM = 0.8  # the top drawer's front panel ends at 0.77 m; the object's bottom stays over this (m)
BACK_OFF_STEPS = 15  # steps the base reverses after a release inside a container
NEAR = 1.0  # the arm takes the carry posture within this planar distance of the goal (m)
CONTAINER_STAND = 0.42  # base distance from the fridge's or cabinet's front for goals inside (m)
ROLLING = ("sphere", "capsule")  # shapes that roll on a surface (capsules lie on their side)
STILL_LIN = 0.001  # m/s: the held object is released only below this speed (a sphere rolls on with it)
STILL_ANG = 0.05  # rad/s: and below this angular speed
LIFT = 0.06  # after the release the EE goes this far straight up before heading to rest (m)


def level_arm_to(
    r: Robot, world: np.ndarray, handle: str, max_step: float = 0.08, weight: float = LEVEL_WEIGHT
) -> np.ndarray:
    """Arm action moving the EE toward `world` while turning the held object's up axis to vertical
    (`weight`: of the tilt rows against the position rows).

    Damped least squares on the stacked position and rotation Jacobians of the grip site, steered from
    the joint targets (no wind-up), scaled as a whole into [-1, 1].
    """
    b = r.b
    m, d = b.model, b.data
    jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    mujoco.mj_jacSite(m, d, jacp, jacr, r._grip_site)
    J = np.vstack([jacp[:, r._arm_dof], weight * jacr[:, r._arm_dof]])
    err = np.asarray(world, dtype=np.float64) - d.site_xpos[r._grip_site]
    n = float(np.linalg.norm(err))
    if n > max_step:
        err *= max_step / n
    up = d.xmat[m.body(f"obj:{handle}").id].reshape(3, 3)[:, 2]
    tilt = LEVEL_GAIN * np.cross(up, np.array([0.0, 0.0, 1.0]))
    e = np.concatenate([err, weight * tilt])
    dq = J.T @ np.linalg.solve(J @ J.T + 1e-2 * np.eye(6), e)
    dq += d.qpos[r._arm_q] - d.ctrl[r._arm_u]
    a = dq / ARM_SCALE
    peak = float(np.abs(a).max())
    return a / peak if peak > 1.0 else a


def upright(r: Robot, handle: str) -> float:
    """Cosine of the held object's tilt (1: upright)."""
    b = r.b
    return float(b.data.xmat[b.model.body(f"obj:{handle}").id].reshape(3, 3)[2, 2])


def carry_to(r: Robot, handle: str, point: np.ndarray, tol: float, steps: int) -> Actions:
    """Move the held object's centre to `point` (world), upright, by moving the EE by the same offset.

    Done once there and upright, or there and no longer getting more upright (`LEVEL_PATIENCE` steps
    without gain: high up the resting wrist is at its limit and the object cannot be levelled), or
    near there and stalled for as long (it rests on the surface, or the arm is blocked)."""
    b = r.b
    best, since, trail = -1.0, 0, []
    for _ in range(steps):
        if b.held != handle:
            return
        pos = b.object_pos(handle)
        err = point - pos
        up = upright(r, handle)
        best, since = (up, 0) if up > best + 0.002 else (best, since + 1)
        dist = float(np.linalg.norm(err))
        if dist < tol and (up > 0.97 or since >= LEVEL_PATIENCE):
            return
        trail.append(pos)
        stalled = (
            len(trail) > LEVEL_PATIENCE and float(np.linalg.norm(pos - trail[-LEVEL_PATIENCE - 1])) < 0.003
        )
        if dist < 3 * tol and stalled:
            return
        yield r.flat(level_arm_to(r, b.ee_pos_world + err, handle))


def carry_posture(r: Robot, handle: str, obj_z: float, ahead: float) -> np.ndarray:
    """Joint angles holding the object `ahead` further out than at rest with its centre at height `obj_z`,
    as upright as at rest (the gripper keeps its resting orientation)."""
    b = r.b
    cup = b.world_to_base(r.cup_pos())
    obj = b.world_to_base(b.object_pos(handle))
    target = cup + np.array([ahead, 0.0, obj_z - obj[2]])
    return posture(b.model, b.data, target, level=True)


def to_posture(r: Robot, q: np.ndarray, steps: int) -> Actions:
    """Joint-space move to `q`; ends early when there or when the arm stops moving (blocked)."""
    b = r.b
    last = b.data.qpos[r._arm_q].copy()
    for i in range(steps):
        now = b.data.qpos[r._arm_q].copy()
        if float(np.abs(now - q).max()) < 0.05 or (i > 5 and float(np.abs(now - last).max()) < 1e-3):
            return
        last = now
        yield r.flat(r.joints_to(q))


def approach_goal(r: Robot, handle: str, goal: np.ndarray) -> Actions:
    """Bring the held object to hang over its goal: into a container square to its front with the arm in
    the carry posture; onto an open surface by `_drive_in`. Then the base steers the object over the
    goal (look-ahead point control) until it is there or the base stops making progress."""
    b = r.b
    z0 = float(b.object_pos(handle)[2])
    cross = crossing_height(r, handle, goal)
    q_drive = carry_posture(r, handle, max(cross, z0), 0.0)
    q_carry = carry_posture(r, handle, cross, AHEAD)
    if not r.has_base:
        yield from to_posture(r, q_carry, 40)
        return
    front = container_front(r, r.b.spec.targets[0].goal_receptacle, goal, CONTAINER_STAND)
    if front is not None:  # inside the fridge or a drawer: come in square to its front

        def arm() -> np.ndarray:  # lowered (or raised) to the goal's height within a metre of it
            return r.joints_to(q_carry if r.planar_dist(goal) < NEAR else q_drive)

        yield from go_stand(r, front, goal, arm, tol=0.05)
        yield from to_posture(r, q_carry, 40)
        hold = lambda: r.joints_to(q_carry)  # noqa: E731
    else:
        hold = yield from _drive_in(r, handle, goal, cross)
    yield from steer_cup(
        r, lambda: goal, hold, _Progress(r, handle, goal), 60, point=lambda: b.object_pos(handle), speed=0.3
    )


def _drive_in(r: Robot, handle: str, goal: np.ndarray, cross: float) -> Generator:
    """`approach_line` to the goal: the object raised to the crossing height on the way, then carried
    (Cartesian, kept near upright) out to where the goal will be while the base drives in; the base waits
    at a tall surface's edge until the object is high enough to cross it. Returns the arm command that
    holds it there."""
    b, layout = r.b, r.b.spec.layout
    st = stand_for(r, goal)
    obj_x = float(b.world_to_base(b.object_pos(handle))[0])
    reach = obj_x + AHEAD if st is None else float(np.linalg.norm(st.close - goal[:2]))
    target = np.array([float(np.clip(reach, obj_x, obj_x + MAX_AHEAD)), 0.0, cross])  # base frame

    def hold() -> np.ndarray:
        world = b.ee_pos_world + r.base_point(target) - b.object_pos(handle)
        return level_arm_to(r, world, handle, weight=CARRY_WEIGHT)

    def there(tol: float = 0.04) -> bool:
        return float(np.linalg.norm(b.world_to_base(b.object_pos(handle)) - target)) < tol

    def high() -> bool:  # high enough to cross the surface's edge (reaching out goes on while driving)
        return float(b.object_pos(handle)[2]) > cross - 0.02 or not arm_over_tall(layout, b.base_pose)

    raise_only = np.array([obj_x, 0.0, max(cross, float(b.world_to_base(b.object_pos(handle))[2]))])

    def raised() -> np.ndarray:
        world = b.ee_pos_world + r.base_point(raise_only) - b.object_pos(handle)
        return level_arm_to(r, world, handle, weight=CARRY_WEIGHT)

    yield from approach_line(r, goal, st, raised, hold, high)
    for _ in range(60):
        if there(0.02):
            break
        yield r.flat(hold())
    return hold


def crossing_height(r: Robot, handle: str, goal: np.ndarray) -> float:
    """Height of the object's centre while it is carried in over its goal: `HOVER` over the goal, and
    over an open drawer's front panel (a lower object pushes the drawer shut)."""
    z = float(goal[2]) + HOVER
    # None for a goal that is no episode target's (the chain putting down a held non-target object)
    receptacle = r.b.spec.targets[0].goal_receptacle
    if receptacle is not None and receptacle.startswith("drawer_"):
        z = max(z, DRAWER_RIM + half_height(r, handle))
    return z


class _Progress:
    """`until` for the base steering: at the goal (1.5 cm), or no progress over the last 8 steps."""

    def __init__(self, r: Robot, handle: str, goal: np.ndarray) -> None:
        self.r, self.handle, self.goal, self.hist = r, handle, goal, []

    def __call__(self) -> bool:
        d = float(np.linalg.norm((self.r.b.object_pos(self.handle) - self.goal)[:2]))
        self.hist.append(d)
        return d < 0.015 or (len(self.hist) > 8 and self.hist[-9] - d < 0.005)


def still(r: Robot, handle: str, steps: int = 30) -> Actions:
    """Brake the arm (joint targets to where the joints are) and stop the base until the held object is
    still. A sphere or a capsule on its side released moving rolls on, however slowly (the contacts have
    no rolling friction), until it leaves its goal or drops off the surface; other shapes stop by
    friction and need only the coarse test."""
    b = r.b
    bid = b.model.body(f"obj:{handle}").id
    rolls = object_type(next(o.type for o in b.spec.objects if o.handle == handle)).shape in ROLLING
    lin, ang = (STILL_LIN, STILL_ANG) if rolls else (0.05, 0.05)
    for _ in range(steps):
        cv = b.data.cvel[bid]
        if float(np.linalg.norm(cv[3:])) < lin and float(np.linalg.norm(cv[:3])) < ang:
            return
        yield r.flat(r.joints_to(b.data.qpos[r._arm_q]), np.zeros(2))


def lift_off(r: Robot, back_off: bool) -> Actions:
    """After the release: straight up by `LIFT`; unless `back_off` (then `to_rest_after` pulls the arm out
    of the fridge or off a drawer) the base then backs out from over a tall surface with the arm as it is:
    the cup stays above the placed object, while the resting cup hangs at the height of what stands on a
    shelf or counter."""
    top = r.b.ee_pos_world + np.array([0.0, 0.0, LIFT])
    for _ in range(12):
        if r.b.ee_pos_world[2] > top[2] - 0.01:
            break
        yield r.flat(r.arm_to(top))
    if not back_off:
        yield from retreat(r, lambda: np.zeros(7), 40)


def to_rest_after(r: Robot, back_off: bool, steps: int = 120) -> Actions:
    """To rest after `lift_off`: with `back_off` in joint space while the base first reverses to pull the
    arm out, else straight (Cartesian), backing out from over a tall surface while the arm is there."""
    for i in range(steps):
        if r.rest_dist() < 0.08:
            return
        if back_off:
            base = np.array([-0.15, 0.0]) if i < BACK_OFF_STEPS and r.has_base else None
            yield r.flat(r.joints_to(REST_JOINTS), base)
        else:
            yield r.flat(r.arm_to(r.rest_world()), retreat_command(r))


class Place(ScriptedSkill):
    """Scripted place controller (privileged)."""

    skill = "place"

    def plan(self, r: Robot) -> Actions:
        h = target_handle(r)
        goal = np.array(r.b.spec.targets[0].goal, dtype=np.float64)
        r.grip = 1.0
        yield from approach_goal(r, h, goal)
        if float(np.linalg.norm((r.b.object_pos(h) - goal)[:2])) > 0.03:  # not over it yet: come from above
            yield from carry_to(r, h, goal + np.array([0.0, 0.0, HOVER]), 0.03, 80)
        yield from carry_to(r, h, goal + np.array([0.0, 0.0, DROP]), 0.012, 60)
        yield from still(r, h)
        r.grip = -1.0
        yield from settle(r, 2)
        back_off = r.b.spec.targets[0].goal_receptacle in CONTAINERS
        self._released = back_off  # on an open surface the skill may end only once clear of it
        yield from lift_off(r, back_off)
        self._released = True
        yield from to_rest_after(r, back_off)

    def reset(self, env) -> None:
        super().reset(env)
        self._released = False

    def terminated(self, r: Robot) -> bool:
        return r.b.held is None and self._released and r.rest_dist() < REST_TOL
