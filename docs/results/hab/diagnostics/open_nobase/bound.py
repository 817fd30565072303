"""Steps an arm-only open needs from Habitat 2.0's open/close spawn, for given postures: the arm's joints
move at most 0.0125 rad a step (HAB's ArmRelPosAction, ours), so going from joint pose A to B takes at least
max_i |A_i - B_i| / 0.0125 steps whatever the path. Poses: rest; the cup on the shut handle; the cup on the
handle at the success opening (drawer 0.40 m, fridge 1.1708 rad: HAB's target less its 0.05); back at rest
(the episode succeeds only with the EE within 0.15 m of rest). For the base at the region's centre facing
the handle; the count ignores the door's and drawer's resistance, the grasp, obstacles and the stop step.

Two chains of postures:
- `ik`: damped least squares pulled toward the rest posture (`skills.scripted.posture.solve_posture`, the
  wrist free), back to the rest posture itself (the sixty-fifth session's count);
- `nearest`: each posture the one found with the smallest largest joint change from the one before
  (`skills.scripted.posture.nearest_posture`), back to the EE 0.14 m from rest.
Either count holds only for its postures: it is not a bound over every way to open. The `nearest` chain
shows postures exist that fit both opens in far fewer steps than the `ik` chain.

    python docs/results/hab/diagnostics/open_nobase/bound.py > docs/results/hab/diagnostics/open_nobase/bound.txt
"""

import math

import mujoco
import numpy as np

from skills.registry import make_env
from skills.scripted.posture import REST, base_to_world, nearest_posture, posed, solve_posture
from skills.spawn import HABITAT2_ART_REGION, closed_handle
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.robot import ARM_JOINTS
from tpsrl.sim.mujoco.sim import ARM_SCALE
from tpsrl.sim.sensors import REST_EE

OPENED = {"drawer_0": 0.40, "fridge": 1.2208 - 0.05}


def handle_at(layout: int, marker: str, q: float) -> np.ndarray:
    """World position of the handle site with the drawer pulled out q m / the door opened q rad: the shut
    handle (`skills.spawn.closed_handle`) moved out along the drawer, or turned about the door's hinge
    (the fridge's front left corner)."""
    f, hx, hy = closed_handle(layout, marker)
    if marker == "fridge":
        cx, cy = f.spec.depth / 2, f.spec.width / 2
        c, s = math.cos(q), math.sin(q)
        x, y = f.to_world(cx + c * (hx - cx) - s * (hy - cy), cy + s * (hx - cx) + c * (hy - cy))
        return np.array([x, y, 1.0])
    x, y = f.to_world(hx + q, hy)
    return np.array([x, y, L.DRAWER_HEIGHTS[0] + 0.12])


def to_base(p: np.ndarray, bx: float, by: float, yaw: float) -> np.ndarray:
    """A world point in the frame of a base at (bx, by) facing yaw."""
    c, s = math.cos(yaw), math.sin(yaw)
    dx, dy = p[0] - bx, p[1] - by
    return np.array([c * dx + s * dy, -s * dx + c * dy, p[2]])


def reach_err(m: mujoco.MjModel, d: mujoco.MjData, q: np.ndarray, cup: int, target: np.ndarray) -> float:
    return float(np.linalg.norm(posed(m, d, q).geom_xpos[cup] - base_to_world(m, d, target)))


for skill, marker, kind in (("open_drawer", "drawer_0", "drawer"), ("open_fridge", "fridge", "fridge")):
    env = make_env(skill, base_movement=False, spawn_rule="habitat2", split="train")
    env.reset(seed=1)
    b = env.backend
    m, d = b.model, b.data
    layout = b.spec.layout
    (o0, l0), (o1, l1) = HABITAT2_ART_REGION[(kind, "open")]
    f, hx, hy = closed_handle(layout, marker)
    bx, by = f.to_world(hx + (o0 + o1) / 2, hy + (l0 + l1) / 2)
    h = f.to_world(hx, hy)
    yaw = math.atan2(h[1] - by, h[0] - bx)
    for n, v in zip(("base_x", "base_y", "base_yaw"), (bx, by, yaw), strict=True):
        d.qpos[m.jnt_qposadr[m.joint(n).id]] = v
    mujoco.mj_kinematics(m, d)

    points = [
        (label, to_base(handle_at(layout, marker, q), bx, by, yaw))
        for label, q in (
            ("on the shut handle", 0.0),
            (f"on the handle at {OPENED[marker]:.3f}", OPENED[marker]),
        )
    ]
    cup, grip = m.geom("suction_cup").id, m.site("robot0:grip").id
    print(f"{skill}, layout {layout}, base {math.hypot(h[0] - bx, h[1] - by):.3f} m from the shut handle")
    for chain in ("ik", "nearest"):
        poses, q = [("rest", REST)], REST
        for label, target in points:
            q = solve_posture(m, d, target, iters=800) if chain == "ik" else nearest_posture(m, d, target, q)
            poses.append(
                (f"{label} (cup {target[0]:.2f} m ahead, error {reach_err(m, d, q, cup, target):.3f} m)", q)
            )
        if chain == "ik":
            poses.append(("the rest posture", REST))
        else:
            d2 = posed(m, d, q)
            away = to_base(d2.site_xpos[grip], bx, by, yaw) - REST_EE
            edge = REST_EE + 0.14 * away / np.linalg.norm(away)
            q = nearest_posture(m, d, edge, q, site=True)
            err = float(np.linalg.norm(posed(m, d, q).site_xpos[grip] - base_to_world(m, d, edge)))
            poses.append((f"the EE 0.14 m from rest (error {err:.3f} m)", q))
        total = 0
        print(f"  {chain}:")
        for (a, qa), (bname, qb) in zip(poses, poses[1:], strict=False):
            dq = np.abs(qb - qa)
            steps = math.ceil(float(dq.max()) / ARM_SCALE)
            total += steps
            j = ARM_JOINTS[int(dq.argmax())]
            print(f"    {a} -> {bname}: >= {steps} steps ({j} {dq.max():.3f} rad)")
        print(f"    in all >= {total} steps of the episode's 200, with every joint at full speed all the way")
    env.close()
