"""Can a privileged arm-only controller open the fridge within HAB's 200 steps, from where `region.py` counts
the fewest steps? The base is put OUT m in front of the shut handle (ACROSS m to the side, facing it), the
episode otherwise as `make_env("open_fridge", base_movement=False, spawn_rule="habitat2")` draws it (train
layouts; the fridge and the base's place relative to it are the same in every layout, so every episode reads
alike); the arm at SPEED (`capped` or `fast`). The controller: one joint-space move onto the handle's front
to the posture of the smallest largest joint change at the arm's rates (`nearest_posture`), suction on; then,
held, joint-space moves through postures for points along the handle's arc (every STEP rad to 1.21 rad),
each aimed at the first point LEAD rad past the door's opening (PACE=door; PACE=arm: the next point once the
joints are within NEAR rad of this one); with `axis` those postures also turn the
gripper to point into the door's face, TILT below level, as the door turns (without it the wrist meets the
door; SIDE=1: instead held along the shut door toward its free edge the whole pull); let go past 1.19 rad, one joint-space move to the EE 0.10 m from rest, stop. Prints per episode the
step it grasped, the step the door passed 1.17 rad (HAB's success opening), the episode's end, the door's
opening and the outcome as the task judges it (TRACE=1: every 10 steps the joints' lag and the robot's
contacts). Seventy-first session; `armfridge.txt`.

    python docs/results/hab/diagnostics/open_nobase/armfridge.py SPEED OUT ACROSS EPISODES [axis]
"""

import math
import os
import sys

import mujoco
import numpy as np
from arm_rates import SPEED_RATES

from skills.registry import make_env
from skills.scripted.control import Robot
from skills.scripted.posture import _arm_indices, _rot_err, base_to_world, nearest_posture
from skills.spawn import closed_handle
from tpsrl.sim.sensors import REST_EE

speed, out_m, across, n = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), int(sys.argv[4])
use_axis = len(sys.argv) > 5 and sys.argv[5] == "axis"
RATES = np.array(SPEED_RATES[speed])
OPEN_AIM, LET_GO, FACE_OFF = 1.21, 1.19, 0.023
TRACE = bool(os.environ.get("TRACE"))
LEAD = float(os.environ.get("LEAD", "0.3"))  # aim at the first arc point this far past the opening
AXW = float(os.environ.get("AXW", "0.1"))  # weight of the gripper axis against the cup's position
STEP = float(os.environ.get("STEP", "0.1"))  # rad between arc points
PACE = os.environ.get("PACE", "door")  # door: aim LEAD past the opening; arm: the next point once near
NEAR = float(os.environ.get("NEAR", "0.15"))  # rad: "near" an arc point's posture (largest joint gap)
SIDE = bool(os.environ.get("SIDE"))  # with axis: the gripper along the shut door toward its free edge, held
TILT = float(os.environ.get("TILT", "0.87"))  # rad below level (50 deg: the scripted fridge's READY_AXIS)


def set_base(env, x, y, yaw):
    m, d = env.backend.model, env.backend.data
    for name, v in zip(("base_x", "base_y", "base_yaw"), (x, y, yaw), strict=True):
        d.qpos[m.jnt_qposadr[m.joint(name).id]] = v
    d.ctrl[env.backend._base_p] = (x, y, yaw)  # the base's position actuators hold it there
    mujoco.mj_forward(m, d)


def axis_posture(m, d, point_base, axis_base, q_from, iters=300):
    """Joint angles putting the cup at `point_base` with the gripper's x axis along `axis_base`, started
    from `q_from` and pulled toward it (few joint changes): damped least squares on position and axis."""
    scratch = mujoco.MjData(m)
    scratch.qpos[:] = d.qpos
    qadr, dadr, rng = _arm_indices(m)
    scratch.qpos[qadr] = q_from
    cup, body = m.geom("suction_cup").id, m.body("robot0:gripper_link").id
    target = base_to_world(m, d, point_base)
    axis = base_to_world(m, d, axis_base) - base_to_world(m, d, np.zeros(3))
    axis /= np.linalg.norm(axis)
    jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
    w = 1.0 / RATES
    for _ in range(iters):
        mujoco.mj_kinematics(m, scratch)
        mujoco.mj_comPos(m, scratch)
        err = np.concatenate(
            [target - scratch.geom_xpos[cup], AXW * _rot_err(scratch.xmat[body], axis, None)]
        )
        mujoco.mj_jac(m, scratch, jacp, jacr, scratch.geom_xpos[cup], body)
        J = np.vstack([jacp[:, dadr], AXW * jacr[:, dadr]]) / w  # joint steps weighted by their rates
        JJ = J @ J.T + 1e-3 * np.eye(6)
        pinv = J.T @ np.linalg.inv(JJ)
        stay = (np.asarray(q_from) - scratch.qpos[qadr]) / (w * w)  # pulled toward q_from, in time units
        dq = (pinv @ np.clip(err, -0.05, 0.05) + 0.1 * (np.eye(7) - pinv @ J) @ (stay * w)) / w
        scratch.qpos[qadr] = np.clip(scratch.qpos[qadr] + dq, rng[:, 0], rng[:, 1])
    return scratch.qpos[qadr].copy()


env = make_env("open_fridge", base_movement=False, spawn_rule="habitat2", split="train", arm_speed=speed)


def episode(ep: int) -> float:
    """One episode from seed 500 + ep: prints its line, returns its success."""
    env.reset(seed=500 + ep)
    b = env.backend
    m, d = b.model, b.data
    r = Robot(env)
    f, hx, hy = closed_handle(b.spec.layout, "fridge")
    k = f.spec
    cx, cy = k.depth / 2, k.width / 2
    hw = np.array(f.to_world(hx, hy))
    bw = np.array(f.to_world(hx + out_m, hy + across))
    set_base(env, bw[0], bw[1], math.atan2(hw[1] - bw[1], hw[0] - bw[0]))
    z = float(b.handle_pos("fridge")[2])

    def arc(q, off=FACE_OFF):  # world point `off` out of the door face at the handle, door at q rad
        px, py = hx + off - cx, hy - cy
        c, s = math.cos(q), math.sin(q)
        return np.array([*f.to_world(cx + c * px - s * py, cy + s * px + c * py), z])

    def base_dir(o):  # a world direction in the base frame
        origin = base_to_world(m, d, np.zeros(3))
        return b.world_to_base(origin + o) - b.world_to_base(origin)

    def into_face(q):  # base-frame gripper axis: into the door's face at q rad, TILT rad below level
        o = (arc(q, FACE_OFF) - arc(q, FACE_OFF + 0.1)) / 0.1
        return base_dir(math.cos(TILT) * o + np.array([0.0, 0.0, -math.sin(TILT)]))

    def along_face():  # base-frame gripper axis held all pull: along the shut door toward its free edge
        o = np.array([*f.to_world(hx, hy - 0.1), z]) - np.array([*f.to_world(hx, hy), z])
        return base_dir(math.cos(TILT) * o / 0.1 + np.array([0.0, 0.0, -math.sin(TILT)]))

    if SIDE:
        into_face = lambda q: along_face()  # noqa: E731

    qadr = _arm_indices(m)[0]
    q = d.qpos[qadr].copy()
    if use_axis:
        q_on = axis_posture(
            m,
            d,
            b.world_to_base(arc(0.0)),
            into_face(0.0),
            nearest_posture(m, d, b.world_to_base(arc(0.0)), q, rates=RATES),
        )
    else:
        q_on = nearest_posture(m, d, b.world_to_base(arc(0.0)), q, rates=RATES)
    way, qa = [], q_on
    for th in np.arange(STEP, OPEN_AIM + 1e-6, STEP).tolist() + [OPEN_AIM]:
        p = b.world_to_base(arc(th))
        qa = (
            axis_posture(m, d, p, into_face(th), qa)
            if use_axis
            else nearest_posture(m, d, p, qa, rates=RATES)
        )
        way.append((th, qa))
        if TRACE:
            dd = mujoco.MjData(m)
            dd.qpos[:] = d.qpos
            dd.qpos[qadr] = qa
            mujoco.mj_kinematics(m, dd)
            print(
                "way",
                round(th, 2),
                "pos err",
                round(float(np.linalg.norm(dd.geom_xpos[m.geom("suction_cup").id] - arc(th))), 3),
                "axis",
                np.round(dd.xmat[m.body("robot0:gripper_link").id].reshape(3, 3)[:, 0], 2).tolist(),
            )
    grasped = opened = None
    info, t, done = {}, 0, False
    r.grip = 1.0
    phase = "reach"
    nxt = [0]  # the arc point aimed at (PACE=arm)
    while not done:
        art = b.articulation("fridge")
        if phase == "reach" and b.held == "fridge":
            grasped, phase = t, "pull"
        if phase == "pull" and (art >= LET_GO or b.held != "fridge"):
            phase = "back"
            r.grip = -1.0
            away = b.world_to_base(b.ee_pos_world) - REST_EE
            edge = REST_EE + 0.10 * away / max(float(np.linalg.norm(away)), 1e-6)
            q_back = nearest_posture(m, d, edge, d.ctrl[r._arm_u], site=True, rates=RATES)
        if opened is None and art >= 1.1708:
            opened = t
        if phase == "reach":
            a = r.flat(r.joints_to(q_on))
        elif phase == "pull":
            if PACE == "arm":  # the next arc point once the joints are near this one: the arm's own pace
                while nxt[0] < len(way) - 1 and float(np.abs(way[nxt[0]][1] - d.qpos[qadr]).max()) < NEAR:
                    nxt[0] += 1
                target = way[nxt[0]][1]
            else:  # the first arc point LEAD past the door's opening: the door's pace
                target = next((qq for th, qq in way if th > art + LEAD), way[-1][1])
            a = r.flat(r.joints_to(target))
        else:
            a = r.flat(r.joints_to(q_back), stop=r.rest_dist() < 0.12)
        if TRACE and t % 10 == 0:
            goal = {"reach": q_on, "pull": way[-1][1] if phase != "pull" else target, "back": None}[phase]
            lag = None if goal is None else np.round(goal - d.qpos[qadr], 2).tolist()
            pairs = sorted(
                {
                    tuple(sorted((m.body(m.geom_bodyid[c.geom1]).name, m.body(m.geom_bodyid[c.geom2]).name)))
                    for c in d.contact[: d.ncon]
                }
            )
            print([p for p in pairs if any("robot0" in x for x in p)])
            print(
                t,
                phase,
                f"door {art:.2f}",
                "cup-handle",
                round(float(np.linalg.norm(r.cup_pos() - b.handle_pos("fridge"))), 3),
                "lag",
                lag,
            )
        _, _, term, trunc, info = env.step(a)
        t += 1
        done = term or trunc
    st = info.get("episode_stats", {})
    fail = [k2 for k2, v in st.items() if k2.startswith("failure") and v]
    print(
        f"ep {ep}: layout {b.spec.layout} grasped {grasped} at 1.17 rad {opened} end {t} "
        f"door {b.articulation('fridge'):.2f} success {st.get('success')} {fail}",
        flush=True,
    )
    return st.get("success", 0.0)


rows = [episode(ep) for ep in range(n)]
print(f"{speed} out {out_m} across {across} axis {use_axis}: success {sum(rows):.0f} of {n}")
