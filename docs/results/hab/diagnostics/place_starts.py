"""Diagnostic (tenth session): where each place call of a HAB run starts.

Runs `tpsrl-eval` with `HierarchicalAgent._run_skill` wrapped so that, at the start of every place call,
it records the goal in the gripper's frame (`obj_goal_sensor`), the base pose, and the straight-line
(`planar`) and along-the-floor (`geo`, `tpsrl.sim.mujoco.geodesic`) distances from the base to the goal;
the list is written to OUT (JSON, in call order; pair it with the run's results.jsonl place calls).

    python docs/results/hab/diagnostics/place_starts.py /tmp/starts.json scenario=tidy_house agent=tp_srl \
        episodes=25 processes=1 out_dir=/tmp/pd progress=false

processes=1: the wrapper lives in this process.
"""

import json
import sys

import numpy as np

sys.path.insert(0, ".")
import evaluation.agent as A
from evaluation.skillview import SkillView

rec = []
orig = A.HierarchicalAgent._run_skill


def run_skill(self, ep, call):
    first = {}
    if call.skill == "place":
        b = ep.env.backend
        try:
            policy, env_cfg = self._policy(call.skill)
            view = SkillView(ep.env, call.skill, env_cfg, A.call_spec(ep.spec, call, b))
            o = view.observe()
            first = {
                "goal_ee": [float(x) for x in np.asarray(o["obj_goal_sensor"]).ravel()[:3]],
                "base": [float(x) for x in b.base_pose],
            }
            from tpsrl.sim.mujoco.geodesic import GeodesicDistance

            g = np.asarray(call.goal_pos, dtype=float)
            geo = GeodesicDistance()
            geo.reset(ep.spec.layout, g)
            first["planar"] = float(np.linalg.norm(g[:2] - np.asarray(b.base_pose[:2])))
            first["geo"] = geo(np.asarray(b.base_pose[:2]))
        except Exception as e:
            first = {"err": repr(e)}
    r, before = orig(self, ep, call)
    if call.skill == "place":
        prev = ep.records[-1].skill if ep.records else None
        rec.append({**first, "steps": r.steps, "done": r.done, "prev": prev})
    return r, before


A.HierarchicalAgent._run_skill = run_skill
if __name__ == "__main__":
    from evaluation.run import main

    try:
        main(sys.argv[2:])
    finally:
        json.dump(rec, open(sys.argv[1], "w"))
