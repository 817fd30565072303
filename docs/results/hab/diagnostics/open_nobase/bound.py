"""A lower bound on the steps an arm-only open needs from Habitat 2.0's open/close spawn: the arm's joints
move at most 0.0125 rad a step (HAB's ArmRelPosAction, ours), so going from joint pose A to B takes at least
max_i |A_i - B_i| / 0.0125 steps whatever the path. Poses: rest; the cup on the shut handle; the cup on the
handle at the success opening (drawer 0.40 m, fridge 1.1708 rad: HAB's target less its 0.05); rest again
(the episode succeeds only with the arm back within 0.15 m of rest). Postures by damped least squares
(`skills.scripted.posture.solve_posture`, the wrist free; no obstacles), for the base at the region's centre
facing the handle. The bound ignores the door's and drawer's resistance, the grasp and the stop step.

    python docs/results/hab/diagnostics/open_nobase/bound.py > docs/results/hab/diagnostics/open_nobase/bound.txt
"""

import math

import mujoco
import numpy as np

from skills.registry import make_env
from skills.scripted.posture import REST, _arm_indices, base_to_world, solve_posture
from skills.spawn import HABITAT2_ART_REGION, closed_handle_xy
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.robot import ARM_JOINTS
from tpsrl.sim.mujoco.sim import ARM_SCALE

OPENED = {"drawer_0": 0.40, "fridge": 1.2208 - 0.05}


def handle_at(layout: int, marker: str, q: float) -> np.ndarray:
    """World position of the handle site with the drawer pulled out q m / the door opened q rad."""
    f = next(
        f
        for f in L.make_layout(layout).furniture
        if f.kind == ("fridge" if marker == "fridge" else "cabinet")
    )
    k = f.spec
    if marker == "fridge":  # the handle turns about the hinge (front left corner) with the door
        hx, hy = k.depth / 2, k.width / 2
        lx, ly = k.depth / 2 + 0.1 - hx, -k.width / 2 + 0.07 - hy
        c, s = math.cos(q), math.sin(q)
        x, y = f.to_world(hx + c * lx - s * ly, hy + s * lx + c * ly)
        return np.array([x, y, 1.0])
    x, y = f.to_world(k.depth / 2 + 0.05 + q, 0.0)
    return np.array([x, y, L.DRAWER_HEIGHTS[0] + 0.12])


def to_base(p: np.ndarray, bx: float, by: float, yaw: float) -> np.ndarray:
    """A world point in the frame of a base at (bx, by) facing yaw."""
    c, s = math.cos(yaw), math.sin(yaw)
    dx, dy = p[0] - bx, p[1] - by
    return np.array([c * dx + s * dy, -s * dx + c * dy, p[2]])


for skill, marker, kind in (("open_drawer", "drawer_0", "drawer"), ("open_fridge", "fridge", "fridge")):
    env = make_env(skill, base_movement=False, spawn_rule="habitat2", split="train")
    env.reset(seed=1)
    b = env.backend
    m, d = b.model, b.data
    layout = b.spec.layout
    (o0, l0), (o1, l1) = HABITAT2_ART_REGION[(kind, "open")]
    f = next(
        f for f in L.make_layout(layout).furniture if f.kind == ("fridge" if kind == "fridge" else "cabinet")
    )
    hx, hy = f.to_local(*closed_handle_xy(layout, marker))
    bx, by = f.to_world(hx + (o0 + o1) / 2, hy + (l0 + l1) / 2)
    h = closed_handle_xy(layout, marker)
    yaw = math.atan2(h[1] - by, h[0] - bx)
    qadr, _, _ = _arm_indices(m)
    for n, v in zip(("base_x", "base_y", "base_yaw"), (bx, by, yaw), strict=True):
        d.qpos[m.jnt_qposadr[m.joint(n).id]] = v
    mujoco.mj_kinematics(m, d)

    poses = [("rest", REST)]
    for label, q in (("on the shut handle", 0.0), (f"on the handle at {OPENED[marker]:.3f}", OPENED[marker])):
        target = to_base(handle_at(layout, marker, q), bx, by, yaw)
        qq = solve_posture(m, d, target, iters=800)
        d2 = mujoco.MjData(m)
        d2.qpos[:] = d.qpos
        d2.qpos[qadr] = qq
        mujoco.mj_kinematics(m, d2)
        err = float(np.linalg.norm(d2.geom_xpos[m.geom("suction_cup").id] - base_to_world(m, d, target)))
        poses.append((f"{label} (cup {target[0]:.2f} m ahead, IK error {err:.3f} m)", qq))
    poses.append(("rest", REST))
    total = 0
    print(f"{skill}, layout {layout}, base {math.hypot(h[0] - bx, h[1] - by):.3f} m from the shut handle")
    for (a, qa), (bname, qb) in zip(poses, poses[1:], strict=False):
        dq = np.abs(qb - qa)
        steps = math.ceil(float(dq.max()) / ARM_SCALE)
        total += steps
        j = ARM_JOINTS[int(dq.argmax())]
        print(f"  {a} -> {bname}: >= {steps} steps ({j} {dq.max():.3f} rad)")
    print(f"  in all >= {total} steps of the episode's 200, with every joint at full speed all the way")
    env.close()
