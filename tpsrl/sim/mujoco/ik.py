"""Privileged end-effector control: arm actions that move the suction cup toward a world point.

Used by tests, the demo and (later) the scripted skills. It reads the simulator's Jacobian, so it is a
privileged controller, not something a learned policy sees.
"""

from __future__ import annotations

import mujoco
import numpy as np

from .sim import ARM_SCALE, MujocoSim


def arm_action_toward(
    sim: MujocoSim, target: np.ndarray, max_step: float = 0.03, damping: float = 1e-2
) -> np.ndarray:
    """Arm action [7] in [-1, 1] that moves the EE up to `max_step` metres toward `target` (world).

    Damped least squares on the EE position Jacobian, plus a pull toward the current joint targets in
    the null space so the folded arm does not wander.
    """
    m, d = sim.model, sim.data
    jacp = np.zeros((3, m.nv))
    mujoco.mj_jacSite(m, d, jacp, None, sim._grip_site)
    J = jacp[:, sim.model.jnt_dofadr[sim.model.actuator_trnid[sim._arm_u, 0]]]
    err = np.asarray(target, dtype=np.float64) - d.site_xpos[sim._grip_site]
    n = np.linalg.norm(err)
    if n > max_step:
        err *= max_step / n
    dq = J.T @ np.linalg.solve(J @ J.T + damping * np.eye(3), err)
    # Joint targets lead the joints; steer from the targets so repeated calls do not wind up.
    dq += d.qpos[sim._arm_q] - d.ctrl[sim._arm_u]
    return np.clip(dq / ARM_SCALE, -1.0, 1.0)
