"""Scripted open/close drawer: the arm pre-shapes to a handle-height posture while the base drives to the
cabinet; the base then brings the cup onto the handle, pulls it out (open, suction on) or pushes the
drawer front shut (close; no grasp, HAB disables the grip there); then release and back to rest."""

from __future__ import annotations

import numpy as np

from tpsrl.sim.sensors import REST_EE

from .articulated import OPEN_TARGET, finish, front_axis, furniture, target_articulation
from .control import Actions, Robot, ScriptedSkill, go_stand
from .posture import nearest_posture, posture
from .steer import steer_cup

OPEN_AIM = OPEN_TARGET["drawer"] + 0.02
CLOSED_AIM = 0.015
STALL_STEPS = 6  # close: a push that gains < 1 mm over this many steps has stalled
STALL_OK = 0.048  # a stalled push below this counts as shut (HAB: |state| < 0.05)
REACH_X = 0.55  # the cup is held this far ahead of the base centre at handle height (m)
HANDLE_FRONT = 0.033  # cup centre off the handle site when touching its front face (m)
ON_TOP = 0.022  # open: the cup's centre this far over the handle's centre (bar 0.015 + cup 0.018 - 11 mm)
CLEAR_Z = 0.9  # cup height that clears the cabinet top (0.8 m) while the base turns and drives
LOWER_AT = 0.4  # the arm goes down to handle height once the base is this close to its stand (m)
PULL = 0.8  # pull / push speed of the cup along the drawer axis (m/s)
ARM_OPEN = 0.43  # arm only: let go once the drawer is this far out (HAB's success: >= 0.40 m)
ARM_REST = 0.12  # arm only: stop once the EE is this close to rest (HAB: 0.15)


def ready(r: Robot, name: str, above: float = 0.0) -> np.ndarray:
    """Arm posture with the cup `REACH_X` ahead of the base, `above` metres over the handle's centre."""
    z = float(r.b.handle_pos(name)[2]) + above
    return posture(r.b.model, r.b.data, np.array([REACH_X, 0.0, z]))


def approach(r: Robot, name: str, out: np.ndarray, q_ready: np.ndarray) -> Actions:
    """Drive to stand in front of the handle; the arm pre-shapes meanwhile, held over the cabinet top
    (`CLEAR_Z`) until the base is near and facing the handle, then lowered to `q_ready`."""
    b = r.b
    stand = b.handle_pos(name)[:2] + (REACH_X + HANDLE_FRONT + 0.1) * out[:2]
    q_high = posture(b.model, b.data, np.array([REACH_X, 0.0, CLEAR_Z]))

    def arm() -> np.ndarray:  # near the stand the cup turns in front of the cabinet, > 0.15 m from it
        return r.joints_to(q_ready if r.planar_dist(stand) < LOWER_AT or not r.has_base else q_high)

    if r.has_base:
        yield from go_stand(r, stand, b.handle_pos(name), arm, tol=0.1)
    for _ in range(60):  # the arm may still be on its way
        if float(np.abs(b.data.qpos[r._arm_q] - q_ready).max()) < 0.1:
            return
        yield r.flat(r.joints_to(q_ready))


def touch(r: Robot, name: str, out: np.ndarray, q_ready: np.ndarray, until, depth: float) -> Actions:
    """Bring the cup onto the handle's front face with the base (`depth` metres into it)."""
    b = r.b

    def point() -> np.ndarray:
        return b.handle_pos(name) + (HANDLE_FRONT - depth) * out

    if r.has_base:
        yield from steer_cup(r, point, lambda: r.joints_to(q_ready), until, 60, gain=4.0, speed=0.5)
    for _ in range(60):
        if until():
            return
        yield r.flat(r.cup_to(point()))


class OpenDrawer(ScriptedSkill):
    """Scripted open-drawer controller (privileged)."""

    skill = "open_drawer"

    def plan(self, r: Robot) -> Actions:
        start = r.b.ee_pos_world.copy()
        name = target_articulation(r, "drawer")
        out = front_axis(furniture(r, name))
        if not r.has_base:
            yield from arm_only(r, name, out)
            return
        q_ready = ready(r, name, ON_TOP)
        r.grip = -1.0
        yield from approach(r, name, out, q_ready)
        r.grip = 1.0  # the cup comes in just over the bar and grasps its top (the fingers stay clear)
        yield from touch(r, name, out, q_ready, lambda: r.b.held == name, HANDLE_FRONT)
        if r.b.held == name:
            yield from pull(r, name, out, q_ready)
        yield from finish(r, start, np.array([-0.3, 0.0]))


def pull(r: Robot, name: str, out: np.ndarray, q_ready: np.ndarray, steps: int = 120) -> Actions:
    """Pull the held handle out along `out`: the base moves the cup (arm still), or the arm alone."""
    b = r.b

    def done() -> bool:
        return b.articulation(name) >= OPEN_AIM or b.held != name

    if r.has_base:
        yield from steer_cup(
            r, r.cup_pos, lambda: r.joints_to(q_ready), done, steps, feed=lambda: PULL * out, gain=0.0
        )
        return
    for _ in range(steps):
        if done():
            return
        yield r.flat(r.arm_to(b.ee_pos_world + 0.05 * out))


def arm_only(r: Robot, name: str, out: np.ndarray) -> Actions:
    """Open without base movement (Habitat 2.0's per-skill action space), from whatever state it is handed:
    unless the drawer is out already, the cup goes onto the handle's top by one joint-space move to the
    posture that costs the fewest steps (`nearest_posture`; HAB's 200 steps leave no room for a Cartesian
    approach), suction on; the arm pulls straight out to `ARM_OPEN`; then release, a joint-space move to the
    nearest posture with the EE inside HAB's rest radius, and stop."""
    b = r.b
    m, d = b.model, b.data
    if b.held != name and b.articulation(name) < OPEN_TARGET["drawer"] - 0.04:
        on = b.world_to_base(b.handle_pos(name) + np.array([0.0, 0.0, ON_TOP]))
        q_on = nearest_posture(m, d, on, d.ctrl[r._arm_u])
        r.grip = 1.0
        for _ in range(100):
            if b.held == name:
                break
            yield r.flat(r.joints_to(q_on))
    if b.held == name:
        r.grip = 1.0  # hold on (a plan handed the handle held starts here)
        for _ in range(120):
            if b.articulation(name) >= ARM_OPEN or b.held != name:
                break
            yield r.flat(r.arm_to(b.ee_pos_world + 0.05 * out))
    r.grip = -1.0
    away = b.world_to_base(b.ee_pos_world) - REST_EE
    edge = REST_EE + 0.1 * away / max(float(np.linalg.norm(away)), 1e-6)
    q_back = nearest_posture(m, d, edge, d.ctrl[r._arm_u], site=True)
    for _ in range(100):
        if r.rest_dist() < ARM_REST:
            break
        yield r.flat(r.joints_to(q_back))
    yield r.flat(None, stop=True)


class CloseDrawer(ScriptedSkill):
    """Scripted close-drawer controller (privileged): pushes the drawer front with the cup."""

    skill = "close_drawer"

    def plan(self, r: Robot) -> Actions:
        start = r.b.ee_pos_world.copy()
        name = target_articulation(r, "drawer")
        out = front_axis(furniture(r, name))
        q_ready = ready(r, name)
        r.grip = -1.0
        yield from approach(r, name, out, q_ready)
        near = lambda: float(np.dot(r.cup_pos() - r.b.handle_pos(name), out)) < HANDLE_FRONT + 0.005  # noqa: E731
        yield from touch(r, name, out, q_ready, near, 0.0)
        yield from push(r, name, out, q_ready)
        yield from finish(r, start, np.array([-0.3, 0.0]))


def push(r: Robot, name: str, out: np.ndarray, q_ready: np.ndarray, steps: int = 120) -> Actions:
    """Push the handle's front face in along -`out` until the drawer is shut (cup kept on the handle's
    centre line by the base, or by the arm without base)."""
    b = r.b
    hist: list[float] = []

    def done() -> bool:  # shut, or stalled within HAB's tolerance (pushing on only crushes the arm)
        hist.append(b.articulation(name))
        stalled = len(hist) > STALL_STEPS and hist[-STALL_STEPS - 1] - hist[-1] < 0.001
        return hist[-1] <= CLOSED_AIM or (stalled and hist[-1] < STALL_OK)

    def on_face() -> np.ndarray:
        return b.handle_pos(name) + (HANDLE_FRONT - 0.03) * out

    if r.has_base:
        yield from steer_cup(
            r, on_face, lambda: r.joints_to(q_ready), done, steps, feed=lambda: -PULL * out, gain=2.0
        )
        return
    for _ in range(steps):
        if done():
            return
        yield r.flat(r.cup_to(on_face()))
