"""What a far-start pick hits when it ends on force: the arm-geom / scene-geom contacts at the step the
force rule ended the episode (pick_far.py's episodes: held-out layouts, spawns up to MAX_DIST m away).

    python docs/results/hab/diagnostics/pick_far/force_contacts.py skills/checkpoints/pick.pt 60 8.0 > out.jsonl

One JSON line per episode that ended on force: its last step, the arm's contact force then and the
accumulated force, the three largest contacts (arm body/geom, scene body/geom, normal force in N), the EE
height, the base-object and EE-object distances and the EE's distance from rest. A last line counts the
scene bodies of each episode's largest contact.
"""

import json
import sys
from collections import Counter

import mujoco
import numpy as np
from pick_far import far_episodes  # the same episodes, run the same way (this folder is on sys.path)

from skills.terms import ee_rest_dist


def geom_name(m: mujoco.MjModel, g: int) -> str:
    body = mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_BODY, m.geom_bodyid[g])
    return f"{body}/{mujoco.mj_id2name(m, mujoco.mjtObj.mjOBJ_GEOM, g)}"


def arm_contacts(b) -> Counter:
    """Normal force (N) per (arm geom, scene geom) pair this step: the contacts the force rule counts."""
    m, d, f, pairs = b.model, b.data, np.zeros(6), Counter()
    for i in range(d.ncon):
        g1, g2 = (int(g) for g in d.contact.geom[i])
        a1, a2 = b._arm_geom[g1], b._arm_geom[g2]
        if a1 != a2 and not (b._robot_geom[g1] and b._robot_geom[g2]):
            mujoco.mj_contactForce(m, d, i, f)
            arm, other = (g1, g2) if a1 else (g2, g1)
            pairs[(geom_name(m, arm), geom_name(m, other))] += abs(f[0])
    return pairs


def main(policy: str, episodes: int, max_dist: float) -> None:
    tally = Counter()
    for k, env, _, cause, steps, _, _ in far_episodes(policy, episodes, max_dist):
        if cause != "force":
            continue
        b, target = env.backend, env.task.target
        top = arm_contacts(b).most_common(3)
        obj = b.object_pos(target)
        row = {
            "k": k,
            "steps": steps,
            "arm_force": round(b.arm_force),
            "accum": round(env.task.force.accum),
            "top": [[a, o, round(v)] for (a, o), v in top],
            "ee_z": round(float(b.ee_pos_world[2]), 2),
            "ee_rest": round(ee_rest_dist(b), 2),
            "base_obj": round(float(np.hypot(*(obj[:2] - np.array(b.base_pose[:2])))), 2),
            "ee_obj": round(float(np.linalg.norm(b.ee_pos_world - obj)), 2),
        }
        if top:
            tally[top[0][0][1].split("/")[0]] += 1
        print(json.dumps(row), flush=True)
    print(
        json.dumps(
            {
                "policy": policy,
                "episodes": episodes,
                "max_dist": max_dist,
                "largest_contact_with": dict(tally.most_common()),
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), float(sys.argv[3]))
