"""Privileged sense-plan-act building blocks shared by the scripted skills.

Everything here reads the simulator's true state (`env.backend`): poses, the Jacobian, contacts. The
motions are generators of flat actions, so a skill is a short sequence of `yield from` phases; the
`ScriptedSkill` component turns such a generator into a `SkillPolicy` (its `done()` is the generator
finishing, which each skill arranges to coincide with its HAB termination rule).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import Any

import mujoco
import numpy as np

from skills.policy import ActionLayout
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.navigation import turn_command
from tpsrl.sim.mujoco.robot import ARM_JOINTS, ARM_ROLL, REST_QPOS
from tpsrl.sim.mujoco.sim import ARM_SCALE, EE_SCALE
from tpsrl.sim.sensors import REST_EE, base_to_world

from .clearance import (
    ARM_AHEAD,
    BASE_FREE,
    Stand,
    arm_over_tall,
    floor_free,
    stands,
    sweep_over_tall,
)
from .doorpath import CLEARANCE, grid_without, open_parts, plan

Actions = Iterator[np.ndarray]
REST_TOL = 0.15  # HAB: EE within 0.15 m of rest
REST_GOAL = 0.06  # the scripted skills bring the EE this close before declaring rest (margin on 0.15)
BASE_SPEED = 0.8  # linear command on straight path segments (x 2.5 m/s)
RETREAT_SPEED = 0.4  # linear command while reversing out from over a surface (x 2.5 m/s)
HELD_EXTENT = 0.1  # m: a held object reaches this far beyond its centre (the largest are 0.2 m across)
SWEEP = 0.2  # rad: a turn in place larger than this sweeps the arm sideways over what is ahead
PASS_CLEARANCE = 0.7  # m: base centre kept this far from an open door or drawer while passing it
ARM_LEAD = 0.08  # metres of EE error fed to the IK per step (larger: more joints saturate)


class Robot:
    """Privileged view of the robot for one skill call: the backend plus the env's action layout."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.b = env.backend
        self.act = ActionLayout.of(env)
        m = self.b.model
        self._arm_u = np.array([m.actuator(f"act_{n}").id for n in ARM_JOINTS])
        joints = [m.joint(f"robot0:{n}").id for n in ARM_JOINTS]
        self._arm_q = np.array([m.jnt_qposadr[j] for j in joints])
        self._arm_dof = np.array([m.jnt_dofadr[j] for j in joints])
        self._grip_site = m.site("robot0:grip").id
        self.grip = -1.0  # the grip command carried by motions that do not set it

    # ---------------------------------------------------------------- state
    @property
    def has_base(self) -> bool:
        return self.act.has_base

    def cup_pos(self) -> np.ndarray:
        """World position of the suction cup (what must touch the object)."""
        return self.b.cup_pos_world

    def cup_offset(self) -> np.ndarray:
        return self.cup_pos() - self.b.ee_pos_world

    def base_point(self, p: np.ndarray) -> np.ndarray:
        """A base-frame point (origin on the floor under the base centre, x ahead) in world coordinates."""
        return base_to_world(self.b.base_pose, p)

    def rest_world(self) -> np.ndarray:
        return self.base_point(REST_EE)

    def rest_dist(self) -> float:
        return float(np.linalg.norm(REST_EE - self.b.world_to_base(self.b.ee_pos_world)))

    def planar_dist(self, xy: np.ndarray) -> float:
        x, y, _ = self.b.base_pose
        return math.hypot(float(xy[0]) - x, float(xy[1]) - y)

    def heading_err(self, xy: np.ndarray) -> float:
        return float(turn_command(self.b.base_pose, (float(xy[0]), float(xy[1])))[1])

    def grip_jacobian(self) -> np.ndarray:
        """[3, 7]: the grip site's world position per radian of each arm joint."""
        jacp = np.zeros((3, self.b.model.nv))
        mujoco.mj_jacSite(self.b.model, self.b.data, jacp, None, self._grip_site)
        return jacp[:, self._arm_dof]

    # ---------------------------------------------------------------- actions
    def arm_to(self, world: np.ndarray, max_step: float = ARM_LEAD) -> np.ndarray:
        """Arm action moving the EE (grip site) toward a world point, as fast as the joints allow.

        Damped least squares on the position Jacobian (as `tpsrl.sim.mujoco.ik`), steered from the joint
        targets so calls do not wind up; scaled as a whole (not clipped per joint) to keep the direction.
        """
        d = self.b.data
        J = self.grip_jacobian()
        err = np.asarray(world, dtype=np.float64) - d.site_xpos[self._grip_site]
        n = float(np.linalg.norm(err))
        if n > max_step:
            err *= max_step / n
        dq = J.T @ np.linalg.solve(J @ J.T + 1e-2 * np.eye(3), err)
        dq += d.qpos[self._arm_q] - d.ctrl[self._arm_u]
        a = dq / ARM_SCALE
        peak = float(np.abs(a).max())
        return a / peak if peak > 1.0 else a

    def cup_to(self, world: np.ndarray, max_step: float = ARM_LEAD) -> np.ndarray:
        """Arm action moving the suction cup toward a world point."""
        return self.arm_to(np.asarray(world) - self.cup_offset(), max_step)

    def joints_to(self, qpos: np.ndarray) -> np.ndarray:
        """Arm action steering the joint targets toward `qpos` (joint space)."""
        d = self.b.data
        err = np.asarray(qpos, dtype=np.float64) - d.ctrl[self._arm_u]
        # Whole turns are skipped on the roll joints only: a limited joint must go the way its range allows
        # (wrapped, an elbow or wrist more than pi from its target was driven into its limit, and the
        # reset-arm step never brought it back).
        err[ARM_ROLL] = (err[ARM_ROLL] + math.pi) % (2 * math.pi) - math.pi
        return np.clip(err / ARM_SCALE, -1.0, 1.0)

    def ee_step(self, arm: np.ndarray) -> np.ndarray:
        """The end-effector action nearest the joint action `arm`, for an env whose arm takes end-effector
        steps (`arm_control='ee'`): the grip site's displacement that the joint targets' change would make
        (its position Jacobian times the change), in the base frame and units of EE_SCALE, scaled as a
        whole into [-1, 1]. The arm's turn about the grip (levelling a held object) has no counterpart,
        and the end effector moves at most EE_SCALE per step (the joint actions' IK leads up to ARM_LEAD)."""
        step = self.grip_jacobian() @ (ARM_SCALE * np.asarray(arm, dtype=np.float64))
        ee = self.b.ee_pos_world
        v = (self.b.world_to_base(ee + step) - self.b.world_to_base(ee)) / EE_SCALE
        peak = float(np.abs(v).max())
        return v / peak if peak > 1.0 else v

    def flat(
        self, arm: np.ndarray | None = None, base: np.ndarray | None = None, stop: bool = False
    ) -> np.ndarray:
        if arm is not None and "arm_ee_action" in self.act.slices:
            return self.act.make(arm_ee=self.ee_step(arm), grip=self.grip, base=base, stop=stop)
        return self.act.make(arm=arm, grip=self.grip, base=base, stop=stop)


# -------------------------------------------------------------------- motions
def hold_rest(r: Robot) -> np.ndarray:
    """Arm action holding the EE at its resting position (Cartesian)."""
    return r.arm_to(r.rest_world())


def rest_action(r: Robot) -> np.ndarray:
    """Arm action toward rest: straight up first while low (clear of the surface), then to the point."""
    ee = r.b.ee_pos_world
    rest = r.rest_world()
    if ee[2] < rest[2] - 0.12:
        return r.arm_to(ee + np.array([0.0, 0.0, 0.05]))
    return r.arm_to(rest)


def to_rest(r: Robot, max_steps: int = 90, tol: float = REST_GOAL) -> Actions:
    """Bring the EE back to rest."""
    for _ in range(max_steps):
        if r.rest_dist() < tol:
            return
        yield r.flat(rest_action(r))


def cup_reach(
    r: Robot, point: Callable[[], np.ndarray], until: Callable[[], bool], max_steps: int
) -> Actions:
    """Move the cup toward `point()` until `until()` holds (or the step budget runs out)."""
    for _ in range(max_steps):
        if until():
            return
        yield r.flat(r.cup_to(point()))


def base_toward(
    pose: tuple[float, float, float], wp: tuple[float, float], final: bool
) -> tuple[np.ndarray, float]:
    """(base action, distance): turn toward `wp` and drive; full speed through intermediate waypoints."""
    x, y, yaw = pose
    dx, dy = wp[0] - x, wp[1] - y
    d = math.hypot(dx, dy)
    err = (math.atan2(dy, dx) - yaw + math.pi) % (2 * math.pi) - math.pi
    ang = float(np.clip(err * 2.0, -1.0, 1.0))
    speed = min(BASE_SPEED, 1.5 * d) if final else BASE_SPEED
    lin = 0.0 if abs(err) > 0.5 else speed * (1.0 - abs(err) / 0.5)
    return np.array([lin, ang]), d


def drive_to(
    r: Robot,
    target: np.ndarray,
    standoff: tuple[float, float] = (0.55, 0.8),
    arm: Callable[[], np.ndarray] | None = None,
    max_steps: int = 300,
    clear_first: bool = False,
    ready: Callable[[], bool] | None = None,
    pass_wide: bool = True,
) -> Actions:
    """Follow a grid path to a free cell `standoff` metres from `target` (x, y); arm held by `arm()`.

    The grid sees the open fridge door and pulled-out drawers (`doorpath`), passed `PASS_CLEARANCE` away
    unless `pass_wide` is false (a controller that is to push the door shut anyway). With `clear_first`
    the base first reverses out while the arm is over a tall surface (`retreat`); while `ready()` is
    false the base waits (the arm keeps moving), e.g. until the arm is raised above a surface it is to
    cross."""
    if not r.has_base:
        return
    b = r.b
    arm = arm or (lambda: hold_rest(r))
    if clear_first:
        yield from retreat(r, arm)
        if pass_wide:
            yield from back_off_parts(r, arm)
    goal = np.asarray(target, dtype=np.float64)
    here = np.array(b.base_pose[:2])
    path = door_path(r, goal, standoff) if pass_wide else plan(path_grid(r), here, goal, standoff)
    steps = 0
    for i, wp in enumerate(path):
        final = i == len(path) - 1
        while steps < max_steps:
            base, d = base_toward(b.base_pose, wp, final)
            if d < (0.08 if final else 0.25):
                break
            steps += 1
            yield r.flat(arm(), base if ready is None or ready() else np.zeros(2))


def path_grid(r: Robot, inflate: float = L.ROBOT_RADIUS, clearance: float = CLEARANCE) -> np.ndarray:
    """The free-space grid the base plans on: the layout's (furniture inflated by `inflate`), less the
    open fridge door and drawers (cells within `clearance` of them)."""
    b = r.b
    state = {name: b.articulation(name) for name in dict(b.spec.articulations)}
    return grid_without(b.spec.layout, open_parts(b.spec.layout, state), clearance, inflate)


def door_path(r: Robot, target: np.ndarray, standoff: tuple[float, float]) -> list[tuple[float, float]]:
    """Waypoints to `standoff` from `target`: past open doors and drawers `PASS_CLEARANCE` away (the arm,
    or what it holds, reaches that far ahead and pushes a door it sweeps shut), then, where the stand lies
    closer to one (in front of the fridge), on in over the planning grid."""
    b = r.b
    here = np.array(b.base_pose[:2])
    state = {name: b.articulation(name) for name in dict(b.spec.articulations)}
    if not open_parts(b.spec.layout, state):
        return plan(path_grid(r), here, target, standoff)
    path = plan(path_grid(r, clearance=PASS_CLEARANCE), here, target, standoff)
    end = np.array(path[-1]) if path else here
    if float(np.linalg.norm(end - target[:2])) > standoff[1] + 0.05:
        path += plan(path_grid(r), end, target, standoff)
    return path


def creep(
    r: Robot,
    xy: np.ndarray,
    arm: Callable[[], np.ndarray],
    ready: Callable[[], bool] | None = None,
    max_steps: int = 25,
) -> Actions:
    """Drive straight (slowly) to `xy`, a few centimetres past the planning grid, keeping the heading
    within a small turn; the base waits while `ready()` is false."""
    for _ in range(max_steps):
        base, d = base_toward(r.b.base_pose, (float(xy[0]), float(xy[1])), True)
        if d < 0.025:
            return
        yield r.flat(arm(), base * 0.5 if ready is None or ready() else np.zeros(2))


def reach_ahead(r: Robot) -> float:
    """How far ahead of the base centre the arm reaches now: the resting arm's `ARM_AHEAD`, or the cup
    or a held object (with `HELD_EXTENT` for its size) when further out."""
    b = r.b
    out = max(ARM_AHEAD, float(b.world_to_base(r.cup_pos())[0]) + 0.05)
    if b.held is not None and b.held in {o.handle for o in b.spec.objects}:
        out = max(out, float(b.world_to_base(b.object_pos(b.held))[0]) + HELD_EXTENT)
    return out


def retreat_command(r: Robot) -> np.ndarray | None:
    """Base action reversing straight out while the arm (or what it holds) is over a tall surface
    (`clearance`) and the floor behind is free; None once clear (or blocked)."""
    if not r.has_base:
        return None
    layout = r.b.spec.layout
    x, y, yaw = r.b.base_pose
    if not arm_over_tall(layout, (x, y, yaw), reach_ahead(r)):
        return None
    if not floor_free(layout, x - 0.15 * math.cos(yaw), y - 0.15 * math.sin(yaw)):
        return None
    return np.array([-RETREAT_SPEED, 0.0])


def part_dist(r: Robot) -> float:
    """Planar distance (m) from the base centre to the nearest open door or drawer front (inf: none)."""
    b = r.b
    state = {name: b.articulation(name) for name in dict(b.spec.articulations)}
    p = np.array(b.base_pose[:2])
    out = math.inf
    for a, e in open_parts(b.spec.layout, state):
        t = float(np.clip(np.dot(p - a, e - a) / float((e - a) @ (e - a)), 0.0, 1.0))
        out = min(out, float(np.linalg.norm(p - (a + t * (e - a)))))
    return out


def back_off_parts(r: Robot, arm: Callable[[], np.ndarray], max_steps: int = 30) -> Actions:
    """Reverse straight out while the base is within `PASS_CLEARANCE` of an open door or drawer and
    reversing takes it further away: turning in place there (after opening the fridge, or a pick from
    it) sweeps the arm over the door and pushes it shut."""
    layout = r.b.spec.layout
    last = part_dist(r)
    for _ in range(max_steps):
        x, y, yaw = r.b.base_pose
        if last >= PASS_CLEARANCE or not floor_free(
            layout, x - 0.15 * math.cos(yaw), y - 0.15 * math.sin(yaw)
        ):
            return
        yield r.flat(arm(), np.array([-RETREAT_SPEED, 0.0]))
        d = part_dist(r)
        if d < last - 0.002:  # reversing toward it
            return
        last = d


def retreat(r: Robot, arm: Callable[[], np.ndarray] | None = None, max_steps: int = 30) -> Actions:
    """Reverse straight out while the arm is over a tall surface: turning there instead sweeps the
    surface's objects off."""
    arm = arm or (lambda: hold_rest(r))
    for _ in range(max_steps):
        base = retreat_command(r)
        if base is None:
            return
        yield r.flat(arm(), base)


def go_stand(
    r: Robot,
    xy: np.ndarray,
    toward: np.ndarray,
    arm: Callable[[], np.ndarray] | None = None,
    max_steps: int = 300,
    tol: float = 0.03,
    clear_first: bool = False,
    ready: Callable[[], bool] | None = None,
    pass_wide: bool = True,
) -> Actions:
    """Drive to the free cell nearest `xy` and face `toward` (+- `tol` rad); `arm()` drives the arm
    (`clear_first`, `ready`, `pass_wide`: as `drive_to`)."""
    yield from drive_to(r, xy, (0.0, 0.15), arm, max_steps, clear_first, ready, pass_wide)
    yield from face(r, toward, tol=tol, arm=arm, clear_first=clear_first)


def stand_for(r: Robot, point: np.ndarray) -> Stand | None:
    """The `clearance.Stand` to come in to `point` (on a surface) from, over the current planning grid;
    None when nothing is reachable."""
    b = r.b
    here = np.array(b.base_pose[:2])
    return stands(b.spec.layout, path_grid(r), here, point, tight=path_grid(r, BASE_FREE))


def approach_line(
    r: Robot,
    point: np.ndarray,
    st: Stand | None,
    far_arm: Callable[[], np.ndarray],
    in_arm: Callable[[], np.ndarray],
    ready: Callable[[], bool],
) -> Actions:
    """Come in on a straight line to `st.close` (`stand_for`): unless already on that line facing the
    point, stand at its far end facing it (backing out first while the arm is over a tall surface)
    with `far_arm()`; then drive in with `in_arm()`, the base waiting while `ready()` is false; face
    the point."""
    here = np.array(r.b.base_pose[:2])
    if st is None:  # nothing reachable: do what can be done from here
        yield from face(r, point, arm=in_arm)
        return
    facing = abs(r.heading_err(point))
    if float(np.linalg.norm(here - st.close)) > 0.05 or facing > 0.2:
        if not (on_segment(here, st.far, st.close, 0.15) and facing < 0.35):
            yield from go_stand(r, st.far, point, far_arm, tol=0.05, clear_first=True)
        yield from drive_to(r, st.close, (0.0, 0.15), in_arm, ready=ready)
        yield from creep(r, st.close, in_arm, ready)
    yield from face(r, point, arm=in_arm)


def on_segment(xy: np.ndarray, a: np.ndarray, b: np.ndarray, tol: float) -> bool:
    """Whether `xy` lies within `tol` of the segment a-b (planar)."""
    ab = b - a
    t = float(np.clip(np.dot(xy - a, ab) / max(float(ab @ ab), 1e-9), 0.0, 1.0))
    return float(np.linalg.norm(xy - (a + t * ab))) < tol


def face(
    r: Robot,
    target: np.ndarray,
    tol: float = 0.05,
    arm: Callable[[], np.ndarray] | None = None,
    clear_first: bool = False,
) -> Actions:
    """Turn in place to face `target` (x, y). With `clear_first` a turn of more than `SWEEP` rad whose
    arm would sweep over a tall surface goes the other way round if that one does not, else first
    reverses out while the arm is over one (`retreat`)."""
    if not r.has_base:
        return
    arm = arm or (lambda: hold_rest(r))
    xy = (float(target[0]), float(target[1]))
    way = 0.0  # +-1: turn that way round (the long way) until nearly facing
    if clear_first and abs(r.heading_err(target)) > SWEEP:
        layout, pose = r.b.spec.layout, r.b.base_pose
        yaw = math.atan2(xy[1] - pose[1], xy[0] - pose[0])
        ahead = reach_ahead(r)
        if sweep_over_tall(layout, pose, yaw, ahead):
            if not sweep_over_tall(layout, pose, yaw, ahead, long_way=True):
                way = -math.copysign(1.0, r.heading_err(target))
            else:
                yield from retreat(r, arm)
    for _ in range(160 if way else 80):
        _, err = turn_command(r.b.base_pose, xy)
        if abs(err) < tol:
            return
        if way and abs(err) > 0.5:
            yield r.flat(arm(), np.array([0.0, way]))
            continue
        way = 0.0
        yield r.flat(arm(), np.array([0.0, float(np.clip(err * 2.0, -1.0, 1.0))]))


def settle(r: Robot, steps: int, arm: Callable[[], np.ndarray] | None = None) -> Actions:
    for _ in range(steps):
        yield r.flat(None if arm is None else arm())


REST_JOINTS = np.array(REST_QPOS)


class ScriptedSkill:
    """A `SkillPolicy` whose actions come from a plan generator (`plan(robot)`).

    Subclasses set `skill`, implement `plan` (the generator sees the live state at every step) and may
    override `terminated` (the skill's HAB termination rule). `done()` is true once `terminated` holds,
    the plan has emitted a stop action, or the plan has run out (it then gives up).
    """

    skill: str = ""

    def __init__(self) -> None:
        self._gen: Actions | None = None
        self._exhausted = False
        self._stopped = False
        self.r: Robot | None = None

    def plan(self, r: Robot) -> Actions:  # pragma: no cover - overridden
        raise NotImplementedError

    def terminated(self, r: Robot) -> bool:
        """The skill's own termination condition on the live state (default: only the plan ends it)."""
        return False

    def reset(self, env: Any) -> None:
        self.r = Robot(env)
        self._gen = self.plan(self.r)
        self._exhausted = False
        self._stopped = False

    def act(self, obs: dict[str, np.ndarray], env: Any) -> np.ndarray:
        if self._gen is None or self.r is None:
            raise RuntimeError(f"{type(self).__name__}.act called before reset(env)")
        if not self._exhausted:
            try:
                a = next(self._gen)
                stop = self.r.act.slices.get("rearrange_stop")
                self._stopped = stop is not None and float(a[stop][0]) > 0.0
                return a
            except StopIteration:
                self._exhausted = True
        return self.r.flat(hold_rest(self.r))

    def done(self) -> bool:
        if self.r is None:
            return False
        return self._exhausted or self._stopped or self.terminated(self.r)
