"""The arm's free-space joint rates in the simulator (`speed.py`'s measurement), as fractions of HAB's 0.0125
rad a step, under each arm speed (`skill.arm_speed`): `python rates.py`."""

import runpy
from pathlib import Path

import numpy as np

from tpsrl.sim.mujoco.robot import ARM_LEADS

speed = runpy.run_path(str(Path(__file__).parents[1] / "open_nobase" / "speed.py"), run_name="rates")
for arm_speed, lead in ARM_LEADS.items():
    print(arm_speed, "ARM_LEAD", np.round(lead, 3), "rates", np.round(speed["measure_rates"](arm_speed), 2))
