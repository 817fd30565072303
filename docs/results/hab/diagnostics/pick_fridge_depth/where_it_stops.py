"""Where a pick stands in the fridge episodes: per held-out episode (objects in the fridge only), the
object's and the robot's start and end positions in the fridge's frame (metres out from its front face,
metres to its side), the end heading against facing the fridge (degrees), the closest the EE came to the
object, and the robot's position every 50 steps. One JSON line per episode.

    python docs/results/hab/diagnostics/pick_fridge_depth/where_it_stops.py <policy> <seed> <episodes> [field=value ...]

The scripted pick evaluates on the shipped pick's episodes given its spawn fields:
`scripted:pick 7000000 100 near_furniture_prob=0.5 spawn_clearance=0.32`.
"""

import json
import math
import sys

import numpy as np

from skills.evaluate import load, task_overrides
from skills.registry import make_env
from tpsrl.sim.mujoco import layout as L


def fridge_frame(spec) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(outward unit vector, sideways unit vector, centre of the front face), all planar, world frame."""
    f = L.make_layout(spec.layout).get("fridge")
    out = np.array([math.cos(f.yaw), math.sin(f.yaw)])
    return out, np.array([-out[1], out[0]]), np.array(f.to_world(f.spec.depth / 2, 0.0))


def main() -> None:
    policy, seed, episodes = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    pol, fields = load(policy)
    overrides = {"split": "heldout", "force_measure": "peak", "receptacles": ("fridge",)}
    env = make_env(pol.skill, **{**fields, **overrides, **task_overrides(sys.argv[4:])})
    for k in range(episodes):
        obs, _ = env.reset(seed=seed + k)
        b, target = env.backend, env.task.target
        pol.reset(env)
        out, side, front = fridge_frame(b.spec)

        def rel(p, out=out, side=side, front=front) -> list[float]:
            d = np.asarray(p[:2]) - front
            return [round(float(d @ out), 2), round(float(d @ side), 2)]

        obj, start = b.object_pos(target), rel(b.base_pose)
        done, steps, closest, path = False, 0, math.inf, []
        while not done:
            obs, _, terminated, truncated, info = env.step(pol.act(obs, env))
            steps, done = steps + 1, terminated or truncated
            closest = min(closest, float(np.linalg.norm(b.ee_pos_world - b.object_pos(target))))
            if steps % 50 == 0:
                path.append(rel(b.base_pose))
        facing = math.atan2(-out[1], -out[0])
        heading = math.degrees(math.remainder(b.base_pose[2] - facing, 2 * math.pi))
        row = {
            "k": k,
            "ok": info["episode_stats"].get("success", 0) > 0.5,
            "t": steps,
            "obj": rel(obj),
            "objz": round(float(obj[2]), 2),
            "start": start,
            "end": rel(b.base_pose),
            "head": round(heading),
            "minee": round(closest, 2),
            "traj": path,
        }
        print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
