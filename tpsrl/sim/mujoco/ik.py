"""Privileged end-effector control: arm actions that move the suction cup toward a world point.

Used by tests, the demo and (later) the scripted skills. It reads the simulator's Jacobian, so it is a
privileged controller, not something a learned policy sees.
"""

from __future__ import annotations

import numpy as np

from .sim import MujocoSim


def arm_action_toward(
    sim: MujocoSim, target: np.ndarray, max_step: float = 0.03, damping: float = 1e-2
) -> np.ndarray:
    """Arm action [7] in [-1, 1] that moves the EE up to `max_step` metres toward `target` (world).

    Damped least squares on the EE position Jacobian, plus a pull toward the current joint targets in
    the null space so the folded arm does not wander.
    """
    err = np.asarray(target, dtype=np.float64) - sim.data.site_xpos[sim._grip_site]
    n = np.linalg.norm(err)
    if n > max_step:
        err *= max_step / n
    return sim.arm_action_for_ee_step(err, damping)
