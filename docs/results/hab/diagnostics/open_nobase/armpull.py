"""Can the arm alone open the drawer or the fridge from Habitat 2.0's open/close spawn? A privileged
controller: a joint-space reach onto the handle (100 steps at most, then Cartesian), grasp, then a Cartesian
pull (drawer: straight out; fridge: along the door's arc) until the episode ends; prints the largest
opening reached (targets: drawer 0.45 m, fridge 1.2208 rad, success within 0.05 below).

    python docs/results/hab/diagnostics/open_nobase/armpull.py SKILL EPISODES [MAX_STEPS]
    (SKILL open_drawer or open_fridge; MAX_STEPS 200 = HAB's episode, more to see the geometry's limit)
"""

import math
import sys

import numpy as np

from skills.registry import make_env
from skills.scripted.articulated import front_axis, furniture
from skills.scripted.control import Robot
from skills.scripted.posture import solve_posture

skill = sys.argv[1]
n = int(sys.argv[2])
env = make_env(
    skill,
    base_movement=False,
    spawn_rule="habitat2",
    split="train",
    max_steps=int(sys.argv[3]) if len(sys.argv) > 3 else 200,
)
ok = 0
for ep in range(n):
    env.reset(seed=300 + ep)
    b = env.backend
    r = Robot(env)
    m = env.task.marker
    out = front_axis(furniture(r, m))
    h = b.handle_pos(m)
    target_base = b.world_to_base(h + 0.03 * out)
    q = solve_posture(b.model, b.data, target_base, iters=600)
    r.grip = 1.0
    t = 0
    held_at = None
    for t in range(200):
        if b.held == m:
            held_at = t
            break
        a = r.joints_to(q) if t < 100 else r.cup_to(b.handle_pos(m) + 0.01 * out)
        env.step(r.flat(a))
    maxart = 0.0
    if held_at is not None:
        for _ in range(env.task.config.max_steps - held_at):
            if b.held != m:
                break
            hp = b.handle_pos(m)
            if (
                m == "fridge"
            ):  # tangent of the door's arc at the handle: perpendicular to hinge->handle, outward
                f = furniture(r, m)
                k = f.spec
                hinge = np.array([*f.to_world(k.depth / 2, k.width / 2), hp[2]])
                v = hp - hinge
                v[2] = 0
                tan = np.array([-v[1], v[0], 0.0]) / np.linalg.norm(v)
                if np.dot(tan, out) < 0:
                    tan = -tan
                step = 0.05 * tan
            else:
                step = 0.05 * out
            env.step(r.flat(r.cup_to(r.cup_pos() + step)))
            maxart = max(maxart, b.articulation(m))
    dist = math.hypot(*(h[:2] - np.array(b.base_pose[:2])))
    print(
        ep,
        m,
        "base-handle",
        round(dist, 3),
        "held at",
        held_at,
        "max art",
        round(maxart, 3),
        "held end",
        b.held == m,
    )
