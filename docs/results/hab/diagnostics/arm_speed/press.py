"""What the lead cap is for: how hard a blocked arm presses. From 10 starts of Habitat 2.0's open-drawer spawn
(train split), the arm is driven in joint space toward a posture with the cup 0.10 m inside the shut drawer's
front (`nearest_posture`), grip off, for 150 steps; the arm's largest contact force each step (the force
rule's reading, `arm_force_peak`) over the last 100 steps: the median over starts of each start's median and
its largest, under each arm speed (`skill.arm_speed`): `python press.py`."""

import numpy as np

from skills.registry import make_env
from skills.scripted.articulated import front_axis, furniture
from skills.scripted.control import Robot
from skills.scripted.posture import nearest_posture
from tpsrl.sim.mujoco.robot import ARM_LEADS

for arm_speed, lead in ARM_LEADS.items():
    env = make_env(
        "open_drawer", base_movement=False, spawn_rule="habitat2", split="train", arm_speed=arm_speed
    )
    medians, peaks = [], []
    for seed in range(10):
        env.reset(seed=seed)
        r = Robot(env)
        b = r.b
        name = env.task.marker
        inside = b.handle_pos(name) - 0.10 * front_axis(furniture(r, name))
        q = nearest_posture(b.model, b.data, b.world_to_base(inside), b.data.ctrl[r._arm_u])
        forces = []
        for t in range(150):
            env.step(r.flat(r.joints_to(q)))
            if t >= 50:
                forces.append(b.arm_force_peak)
        medians.append(float(np.median(forces)))
        peaks.append(max(forces))
    env.close()
    print("ARM_LEAD", np.round(lead, 3))
    print(
        f"pressing into the drawer front: median {np.median(medians):.0f} N "
        f"(starts {min(medians):.0f}-{max(medians):.0f}),"
    )
    print(f"largest {np.median(peaks):.0f} N (starts {min(peaks):.0f}-{max(peaks):.0f})")
