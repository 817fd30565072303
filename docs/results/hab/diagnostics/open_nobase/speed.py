"""How fast our arm's joints really move, and what that makes of the arm-only opens' step counts.

`bound.py` counts steps at HAB's 0.0125 rad a step on every joint. Our simulator caps how far a joint's
target may lead the joint (`tpsrl.sim.mujoco.robot.ARM_LEADS`, bounding the force of a blocked arm), so a
joint driven at full action moves at a fraction of that rate. (1) The rates: the arm settled at a mid
posture, every joint driven at +1 (then -1) for 30 steps, the mean change a step over the last 20 as a
fraction of 0.0125 rad. (2) Over 20 starts of Habitat 2.0's open/close spawn (train split, seeds 1-20) the
`nearest` chain of `bound.py` (rest -> cup on the shut handle -> cup on the handle at the success opening
-> EE 0.14 m from rest), costed in steps at 0.0125 rad ("nominal") and at the measured rates ("ours"), and
the chain re-solved to be fastest at the measured rates (`nearest_posture(rates=)`). As in `bound.py`: the
door's and drawer's resistance, the grasp, obstacles and the stop step are not counted; and it is a count
for those postures, not a bound over every way to open.

    python docs/results/hab/diagnostics/open_nobase/speed.py > docs/results/hab/diagnostics/open_nobase/speed.txt
"""

import math

import numpy as np

from skills.registry import make_env
from skills.scripted.articulated import front_axis, furniture
from skills.scripted.control import Robot
from skills.scripted.drawer import ON_TOP
from skills.scripted.fridge import HANDLE_FRONT, hinge
from skills.scripted.posture import REST, nearest_posture, posed
from tpsrl.sim.mujoco.robot import ARM_JOINTS
from tpsrl.sim.mujoco.sim import ARM_SCALE
from tpsrl.sim.sensors import REST_EE

MID = np.array([-0.5, -0.6, -1.13, -1.0, -1.2, -1.3, 0.0])  # away from every joint limit
OPENED = {"drawer": 0.40, "fridge": 1.2208 - 0.05}  # HAB's success openings (target less 0.05)


def measure_rates(arm_speed: str = "capped") -> np.ndarray:
    env = make_env(
        "open_fridge", base_movement=False, spawn_rule="habitat2", split="train", arm_speed=arm_speed
    )
    rates = np.full(7, np.inf)
    for sign in (1.0, -1.0):
        env.reset(seed=1)
        r = Robot(env)
        q = r.b.data.qpos
        for _ in range(80):
            env.step(r.flat(r.joints_to(MID)))
        for t in range(30):
            env.step(r.flat(np.full(7, sign)))
            if t == 9:
                q10 = q[r._arm_q].copy()
        rates = np.minimum(rates, np.abs(q[r._arm_q] - q10) / 20 / ARM_SCALE)
    env.close()
    return rates


def opened_point(r: Robot, kind: str, p: np.ndarray, out: np.ndarray) -> np.ndarray:
    """A world point held on the handle, moved with the drawer pulled out / the door turned open."""
    if kind == "drawer":
        return p + OPENED[kind] * out
    h, c, s = hinge(r), math.cos(OPENED[kind]), math.sin(OPENED[kind])
    x, y = p[0] - h[0], p[1] - h[1]
    return np.array([h[0] + c * x - s * y, h[1] + s * x + c * y, p[2]])


def chain(r: Robot, kind: str, rates: np.ndarray | None) -> list[np.ndarray]:
    b = r.b
    m, d = b.model, b.data
    name = r.env.task.marker
    out = front_axis(furniture(r, name))
    if kind == "drawer":
        on = b.handle_pos(name) + np.array([0.0, 0.0, ON_TOP])
    else:
        on = b.handle_pos(name) + (HANDLE_FRONT - 0.01) * out
    qs = [REST]
    for p in (on, opened_point(r, kind, on, out)):
        qs.append(nearest_posture(m, d, b.world_to_base(p), qs[-1], rates=rates))
    # the EE 0.14 m from rest, on the side of the opened pose (found from the grip site of that pose)
    scratch_ee = _ee_at(r, qs[-1])
    away = scratch_ee - REST_EE
    edge = REST_EE + 0.14 * away / float(np.linalg.norm(away))
    qs.append(nearest_posture(m, d, edge, qs[-1], site=True, rates=rates))
    return qs


def _ee_at(r: Robot, q: np.ndarray) -> np.ndarray:
    return r.b.world_to_base(posed(r.b.model, r.b.data, q).site_xpos[r._grip_site].copy())


def steps(qs: list[np.ndarray], rates: np.ndarray) -> list[int]:
    return [
        math.ceil(float((np.abs(b - a) / (ARM_SCALE * rates)).max()))
        for a, b in zip(qs, qs[1:], strict=False)
    ]


def main() -> None:
    rates = measure_rates()
    print(
        "free-space joint rates (fraction of 0.0125 rad a step, the slower sign), all joints driven at once:"
    )
    for j, v in zip(ARM_JOINTS, rates, strict=True):
        print(f"  {j:20s} {v:.2f}")
    ones = np.ones(7)
    for kind in ("drawer", "fridge"):
        env = make_env(f"open_{kind}", base_movement=False, spawn_rule="habitat2", split="train")
        rows = {"nominal": [], "ours": [], "ours, rate-aware postures": []}
        for seed in range(1, 21):
            env.reset(seed=seed)
            r = Robot(env)
            plain = chain(r, kind, None)
            rows["nominal"].append(steps(plain, ones))
            rows["ours"].append(steps(plain, rates))
            rows["ours, rate-aware postures"].append(steps(chain(r, kind, rates), rates))
        env.close()
        print(
            f"\nopen_{kind}: steps rest -> shut handle + -> opened + -> rest radius = total (20 starts: mean, min-max)"
        )
        for label, legs in rows.items():
            a = np.array(legs)
            tot = a.sum(1)
            parts = " + ".join(f"{v:.0f}" for v in a.mean(0))
            print(f"  {label:27s} {parts} = {tot.mean():.0f}   ({tot.min()}-{tot.max()}) of 200")


if __name__ == "__main__":
    main()
