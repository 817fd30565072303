"""How far ahead the suction cup reaches at the drawer handle's height (0.67 m) and the fridge's (1.0 m):
the position error of the damped-least-squares posture (`skills.scripted.posture.solve_posture`, no
obstacles) for a cup target x m ahead of the base centre, with the wrist free and pointing ahead.

    python docs/results/hab/diagnostics/open_nobase/reach.py > docs/results/hab/diagnostics/open_nobase/reach.txt
"""

import mujoco
import numpy as np

from skills.registry import make_env
from skills.scripted.posture import _arm_indices, base_to_world, solve_posture

env = make_env("open_drawer", base_movement=False, split="train")
env.reset(seed=1)
b = env.backend
m, d = b.model, b.data
qadr, _, _ = _arm_indices(m)
cup = m.geom("suction_cup").id
for z in (0.67, 1.0):
    for x in (0.8, 0.85, 0.9, 0.95, 1.0, 1.05):
        row = []
        for axis in (None, np.array([1.0, 0, 0])):
            q = solve_posture(m, d, np.array([x, 0.0, z]), axis=axis, iters=800)
            d2 = mujoco.MjData(m)
            d2.qpos[:] = d.qpos
            d2.qpos[qadr] = q
            mujoco.mj_kinematics(m, d2)
            row.append(
                round(float(np.linalg.norm(d2.geom_xpos[cup] - base_to_world(m, d, np.array([x, 0, z])))), 3)
            )
        print("z", z, "x", x, "err free / pointing", row)
