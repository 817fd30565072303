"""Where in front of the fridge could an arm-only open fit HAB's 200 steps at our arm's joint rates? Over
Habitat 2.0's whole open-fridge region before its 0.2 shrink (`skills.spawn.HABITAT2_ART_REGION`: 0.83-1.25 m
out from the shut handle, 0.6 m either side; here from 0.70 m out) in 0.08 x 0.1 m cells, five headings about
facing the handle, bases the door's swing to 1.25 rad passes at < 0.36 m left out: the `nearest_posture` chain
(at the joint rates measured by `speed.py`) rest -> the cup on the shut handle -> six points along the
handle's arc to HAB's success opening (1.1708 rad) -> the EE 0.14 m from rest, in steps. Layout of train
seed 1. As `bound.py` and `speed.py`: a count for these postures, not a bound over every way to open; the
door's resistance, the grasp and the stop step are not counted. The argument picks the arm (`arm_speed`):
`capped` (the default, the rates `speed.py` measured) or `fast` (`../arm_speed/rates.txt`; seventy-first
session).

    python docs/results/hab/diagnostics/open_nobase/region.py > docs/results/hab/diagnostics/open_nobase/region.txt
    python docs/results/hab/diagnostics/open_nobase/region.py fast > docs/results/hab/diagnostics/open_nobase/region_fast.txt
"""

import math
import sys

import mujoco
import numpy as np
from arm_rates import SPEED_RATES

from skills.registry import make_env
from skills.scripted.posture import REST, nearest_posture, posed
from skills.spawn import closed_handle
from tpsrl.sim.mujoco.sim import ARM_SCALE
from tpsrl.sim.sensors import REST_EE

SPEED = sys.argv[1] if len(sys.argv) > 1 else "capped"
if SPEED not in SPEED_RATES:
    sys.exit(f"region.py: arm speed {SPEED!r}; accepted: {sorted(SPEED_RATES)}")
RATES = np.array(SPEED_RATES[SPEED])
OPEN = 1.1708
ROW = "{:.0f} steps: {:.2f} m out, {:+.1f} m across, heading {:+.1f} rad; reach {:.0f}, pull {:.0f}, back {:.0f}; door {:.2f} m"
env = make_env("open_fridge", base_movement=False, spawn_rule="habitat2", split="train")
env.reset(seed=1)
b = env.backend
m, d = b.model, b.data
layout = b.spec.layout
f, hx, hy = closed_handle(layout, "fridge")
k = f.spec
cx, cy = k.depth / 2, k.width / 2
print("arm", SPEED, "rates", RATES.tolist(), "fridge width", k.width, "depth", k.depth)


def loc_to_world(x, y):
    return np.array(f.to_world(x, y))


def handle_local(q, off=0.0):
    # handle site (plus `off` out of the door face) turned q about the hinge, fridge frame
    px, py = hx + off - cx, hy - cy
    c, s = math.cos(q), math.sin(q)
    return cx + c * px - s * py, cy + s * px + c * py


def door_pts(q):  # points along the door panel's outer face, fridge frame
    c, s = math.cos(q), math.sin(q)
    return [(cx + c * 0.05 - s * (-a), cy + s * 0.05 + c * (-a)) for a in np.linspace(0, k.width, 12)]


grip = m.site("robot0:grip").id


def ee_base(q):
    return b.world_to_base(posed(m, d, q).site_xpos[grip].copy())


def cost(qa, qb):
    return float((np.abs(qb - qa) / (ARM_SCALE * RATES)).max())


# handle frame: out = +x of fridge frame (front), lat = +y (toward hinge)
rows = []
for out in np.arange(0.70, 1.26, 0.08):
    for lat in np.arange(-0.6, 0.61, 0.1):
        bx_l, by_l = hx + out, hy + lat
        # door sweep clearance
        clear = min(
            math.hypot(px - bx_l, py - by_l) for q in np.linspace(0, 1.25, 14) for px, py in door_pts(q)
        )
        if clear < 0.36:
            continue
        bw = loc_to_world(bx_l, by_l)
        hw = loc_to_world(hx, hy)
        for dyaw in (-0.6, -0.3, 0.0, 0.3, 0.6):
            yaw = math.atan2(hw[1] - bw[1], hw[0] - bw[0]) + dyaw
            for n, v in zip(("base_x", "base_y", "base_yaw"), (bw[0], bw[1], yaw), strict=True):
                d.qpos[m.jnt_qposadr[m.joint(n).id]] = v
            mujoco.mj_kinematics(m, d)
            pts = [np.array([*loc_to_world(*handle_local(q, 0.023)), 1.0]) for q in np.linspace(0, OPEN, 7)]
            q = REST
            legs = []
            for p in pts:
                q2 = nearest_posture(m, d, b.world_to_base(p), q, rates=RATES, iters=250)
                legs.append(cost(q, q2))
                q = q2
            ee = ee_base(q)
            away = ee - REST_EE
            edge = REST_EE + 0.14 * away / np.linalg.norm(away)
            q3 = nearest_posture(m, d, edge, q, site=True, rates=RATES, iters=250)
            reach, pull, back = legs[0], sum(legs[1:]), cost(q, q3)
            rows.append((reach + pull + back, out, lat, dyaw, reach, pull, back, clear))
rows.sort()
print("the 15 fastest (steps, base in the handle frame, heading off facing the handle, legs, nearest door):")
for r in rows[:15]:
    print(ROW.format(*r))
print(
    "the cells in and next to the region Habitat 2.0 spawns in (1.00-1.08 m out, 0.12 m either side), facing the handle:"
)
hab = [r for r in rows if 0.99 < r[1] < 1.1 and abs(r[2]) < 0.15 and r[3] == 0.0]
for r in hab:
    print(ROW.format(*r))
