"""The arm's free-space joint rates in the simulator as it runs (`speed.py`'s measurement), as fractions of HAB's
0.0125 rad a step: `python rates.py` for today's arm, `bash run.sh python rates.py` for the scaled lead cap."""

import runpy
from pathlib import Path

import numpy as np

import tpsrl.sim.mujoco.sim as sim

speed = runpy.run_path(str(Path(__file__).parents[1] / "open_nobase" / "speed.py"), run_name="rates")
print("ARM_LEAD", np.round(sim.ARM_LEAD, 3), "rates", np.round(speed["measure_rates"](), 2))
