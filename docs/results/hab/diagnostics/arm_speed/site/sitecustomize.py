"""Imported by every Python process started with this folder on PYTHONPATH (training's env workers too):
with TPSRL_DIAG_ARM_LEAD_SCALE set (7 comma-separated factors), scales the simulator's arm lead cap
(`tpsrl.sim.mujoco.robot.ARM_LEAD`, as `tpsrl.sim.mujoco.sim` reads it each step). A diagnostic, not a
setting: nothing in the package reads that variable."""

import os

_scale = os.environ.get("TPSRL_DIAG_ARM_LEAD_SCALE")
if _scale:
    import numpy as _np

    import tpsrl.sim.mujoco.sim as _sim

    _sim.ARM_LEAD = tuple(
        float(v) for v in _np.asarray(_sim.ARM_LEAD) * [float(s) for s in _scale.split(",")]
    )
