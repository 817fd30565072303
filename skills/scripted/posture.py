"""Arm postures solved ahead of time: joint angles that put the suction cup at a point of the base frame.

The open/close controllers pre-shape the arm in joint space toward such a posture while the base drives
(both in the same steps), so the arm is ready when the base arrives: the arm joints move at most 0.0125
rad a step, and a Cartesian reach started only after arriving costs most of the 200-step budget.
Postures are solved on a scratch copy of the simulator state (privileged) and cached per target point.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from tpsrl.sim import sensors
from tpsrl.sim.mujoco.robot import ARM_JOINTS, REST_QPOS

REST = np.array(REST_QPOS)


def _arm_indices(m: mujoco.MjModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    joints = [m.joint(f"robot0:{n}").id for n in ARM_JOINTS]
    qadr = np.array([m.jnt_qposadr[j] for j in joints])
    dadr = np.array([m.jnt_dofadr[j] for j in joints])
    rng = np.array([m.jnt_range[j] if m.jnt_limited[j] else (-math.pi, math.pi) for j in joints])
    return qadr, dadr, rng


def solve_posture(
    m: mujoco.MjModel,
    d: mujoco.MjData,
    cup_base: np.ndarray,
    axis: np.ndarray | None = None,
    iters: int = 300,
    bias: float = 0.05,
    level: bool = False,
) -> np.ndarray:
    """Joint angles [7] putting the suction cup at `cup_base` (base frame), and with `axis` (base frame)
    the gripper pointing along it (the cup must be the gripper's foremost point toward a handle: the
    gripper body or a finger touching it first does not grasp); with `level` the gripper keeps its
    resting orientation (a held object stays as upright as it was at rest).

    Damped least squares on the cup's position (and the gripper axis), with a null-space pull toward
    the rest posture (few joint changes), on a scratch copy of `d` (the live state is not touched).
    """
    scratch = mujoco.MjData(m)
    scratch.qpos[:] = d.qpos
    qadr, dadr, rng = _arm_indices(m)
    scratch.qpos[qadr] = REST
    cup = m.geom("suction_cup").id
    grip = m.body("robot0:gripper_link").id
    mujoco.mj_kinematics(m, scratch)
    target = base_to_world(m, d, np.asarray(cup_base, dtype=np.float64))
    rest_rot = scratch.xmat[grip].reshape(3, 3).copy()
    turn = 0.0 if axis is None and not level else 0.3
    if axis is not None:
        axis = base_to_world(m, d, np.asarray(axis, dtype=np.float64)) - base_to_world(m, d, np.zeros(3))
        axis /= float(np.linalg.norm(axis))
    jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    for _ in range(iters):
        mujoco.mj_kinematics(m, scratch)
        err = np.concatenate(
            [target - scratch.geom_xpos[cup], turn * _rot_err(scratch.xmat[grip], axis, rest_rot)]
        )
        if float(np.linalg.norm(err)) < 1e-3:
            break
        mujoco.mj_comPos(m, scratch)
        mujoco.mj_jac(m, scratch, jacp, jacr, scratch.geom_xpos[cup], grip)
        J = np.vstack([jacp[:, dadr], turn * jacr[:, dadr]])
        JJ = J @ J.T + 1e-3 * np.eye(6)
        dq = J.T @ np.linalg.solve(JJ, np.clip(err, -0.05, 0.05))
        null = np.eye(7) - J.T @ np.linalg.solve(JJ, J)
        dq += null @ (bias * (REST - scratch.qpos[qadr]))
        scratch.qpos[qadr] = np.clip(scratch.qpos[qadr] + dq, rng[:, 0], rng[:, 1])
    return scratch.qpos[qadr].copy()


def nearest_posture(
    m: mujoco.MjModel,
    d: mujoco.MjData,
    point_base: np.ndarray,
    q_from: np.ndarray,
    site: bool = False,
    iters: int = 400,
    rates: np.ndarray | None = None,
) -> np.ndarray:
    """Joint angles [7] putting the suction cup (with `site`, the grip site: the EE) at `point_base` (base
    frame) with the largest joint change from `q_from` small: the arm's joints move at most 0.0125 rad a
    step each, so that change is what a joint-space move costs in steps (`solve_posture`'s pull toward rest
    costs 5-44% more on the legs of the arm-only opens: docs/results/hab/diagnostics/open_nobase/bound.txt).
    With `rates` (per joint, a fraction of that step) the change is counted in steps at those rates: each
    joint's change divided by its rate (our joints move at 0.35-0.97 of it: `speed.py` there).

    From `solve_posture`'s answer, damped least squares on the point with a null-space descent of the
    16-norm of the change (a smooth largest change); on a scratch copy of `d`.
    """
    scratch = mujoco.MjData(m)
    scratch.qpos[:] = d.qpos
    qadr, dadr, rng = _arm_indices(m)
    scratch.qpos[qadr] = solve_posture(m, d, point_base) if not site else REST
    q0 = np.asarray(q_from, dtype=np.float64)
    w = np.ones(7) if rates is None else 1.0 / np.asarray(rates, dtype=np.float64)
    body = m.body("robot0:gripper_link").id
    cup, grip = m.geom("suction_cup").id, m.site("robot0:grip").id
    target = base_to_world(m, d, np.asarray(point_base, dtype=np.float64))
    jacp = np.zeros((3, m.nv))
    for _ in range(iters):
        mujoco.mj_kinematics(m, scratch)
        mujoco.mj_comPos(m, scratch)
        at = scratch.site_xpos[grip] if site else scratch.geom_xpos[cup]
        mujoco.mj_jac(m, scratch, jacp, None, at, body)
        J = jacp[:, dadr]
        pinv = J.T @ np.linalg.inv(J @ J.T + 1e-4 * np.eye(3))
        change = w * (scratch.qpos[qadr] - q0)
        norm = float(np.linalg.norm(change, ord=16)) + 1e-9
        grad = w * np.sign(change) * (np.abs(change) / norm) ** 15
        dq = pinv @ np.clip(target - at, -0.05, 0.05) - 0.02 * norm * (np.eye(7) - pinv @ J) @ grad
        scratch.qpos[qadr] = np.clip(scratch.qpos[qadr] + dq, rng[:, 0], rng[:, 1])
    return scratch.qpos[qadr].copy()


def posed(m: mujoco.MjModel, d: mujoco.MjData, q: np.ndarray) -> mujoco.MjData:
    """A scratch copy of `d` with the arm at `q` (kinematics only; the live state is not touched)."""
    d2 = mujoco.MjData(m)
    d2.qpos[:] = d.qpos
    d2.qpos[_arm_indices(m)[0]] = q
    mujoco.mj_kinematics(m, d2)
    return d2


def _rot_err(xmat: np.ndarray, axis: np.ndarray | None, rest_rot: np.ndarray) -> np.ndarray:
    """Rotation (axis x angle, world) taking the gripper toward `axis` (its x axis), else `rest_rot`."""
    R = xmat.reshape(3, 3)
    if axis is not None:
        return np.cross(R[:, 0], axis)
    return 0.5 * sum(np.cross(R[:, i], rest_rot[:, i]) for i in range(3))


def base_to_world(m: mujoco.MjModel, d: mujoco.MjData, p: np.ndarray) -> np.ndarray:
    """A base-frame point (origin on the floor under the base, x ahead) in world coordinates, for the base
    pose in `d.qpos` (`tpsrl.sim.sensors.base_to_world` for a pose already at hand)."""
    pose = [float(d.qpos[m.jnt_qposadr[m.joint(n).id]]) for n in ("base_x", "base_y", "base_yaw")]
    return sensors.base_to_world(pose, p)


_CACHE: dict[tuple, np.ndarray] = {}


def posture(
    m: mujoco.MjModel,
    d: mujoco.MjData,
    cup_base: np.ndarray,
    axis: np.ndarray | None = None,
    level: bool = False,
) -> np.ndarray:
    """`solve_posture`, cached per model, target point (1 cm grid), axis and `level`."""
    ax = None if axis is None else tuple(round(float(v), 2) for v in axis)
    key = (id(m), tuple(round(float(v), 2) for v in cup_base), ax, level)
    if key not in _CACHE:
        _CACHE[key] = solve_posture(m, d, np.array(key[1]), None if ax is None else np.array(ax), level=level)
    return _CACHE[key]


def joint_steps(q_from: np.ndarray, q_to: np.ndarray, rate: float = 0.006) -> int:
    """Rough number of steps a joint-space move takes at `rate` rad/step on its slowest joint."""
    err = (np.asarray(q_to) - np.asarray(q_from) + math.pi) % (2 * math.pi) - math.pi
    return int(np.abs(err).max() / rate)
