"""Why objects fall to the floor in `tp_srl` HAB chains (diagnostic; eleventh/twelfth session).

Runs the shipped `tp_srl` agent on the first N held-out episodes of a scenario (the evaluation's seed-0
set) and, for every object that ends below the floor height of the failure attribution, finds the onset
of its motion (the last step it was held, or walking back, the last of 5 still steps) and reports the
skill then, whether it was held, the first robot contact after it (base / arm / gripper / another object),
and its distance to its goal at the onset.

    python docs/results/hab/diagnostics/falls/falls.py tidy_house 0 100 falls.json > falls.log
    python docs/results/hab/diagnostics/falls/summarise.py falls.log
"""

import collections
import json
import sys
from pathlib import Path

import numpy as np

from evaluation.agent import FLOOR_Z

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # chain.py, beside these folders
from chain import shipped_chain  # noqa: E402

scenario = sys.argv[1]
start, n = int(sys.argv[2]), int(sys.argv[3])
out = sys.argv[4]
agent, env, specs = shipped_chain(scenario, start, n)


class Obs:
    def __init__(self, spec):
        self.t = 0
        self.hist = collections.defaultdict(list)
        self.falls = []
        self.done = set()
        self.skill_start = 0
        self.cur = None
        self.calls = 0
        self.goals = {t.handle: np.array(t.goal) for t in spec.targets}

    def __call__(self, env, info):
        b = env.backend
        m, d = b.model, b.data
        if info.skill != self.cur:
            self.cur = info.skill
            self.skill_start = self.t
            self.calls += 1
        # contacts: object body -> robot part
        parts = collections.defaultdict(set)
        bodies = {int(bid): h for h, bid in zip(b.handles, b._obj_body, strict=True)}
        for i in range(d.ncon):
            g1, g2 = d.contact.geom[i]
            for ga, gb in ((g1, g2), (g2, g1)):
                ob = bodies.get(int(m.geom_bodyid[ga]))
                if ob is not None and b._robot_geom[gb]:
                    part = "arm" if b._arm_geom[gb] else "base"
                    if (
                        gb == b._cup
                        or "finger" in (m.geom(gb).name or "")
                        or "grip" in (m.geom(gb).name or "")
                    ):
                        part = "gripper"
                    parts[ob].add(part)
                elif ob is not None and int(m.geom_bodyid[gb]) in bodies:
                    parts[ob].add("object")
        x, y, yaw = b.base_pose
        for h in b.handles:
            p = b.object_pos(h)
            self.hist[h].append(
                (
                    self.t,
                    info.skill,
                    self.t - self.skill_start,
                    p.copy(),
                    b.held == h,
                    sorted(parts.get(h, ())),
                    float(np.linalg.norm(b.ee_pos_world - p)),
                    float(np.hypot(p[0] - x, p[1] - y)),
                )
            )
            if len(self.hist[h]) > 400:
                self.hist[h].pop(0)
            if h not in self.done and p[2] < FLOOR_Z and b.held != h:
                self.done.add(h)
                self.falls.append(self.analyse(h))
        self.t += 1

    def analyse(self, h):
        H = self.hist[h]
        # motion onset: walking back, the last step where it was held or at rest for 5 steps
        onset = 0
        for k in range(len(H) - 1, 4, -1):
            if H[k][4]:
                onset = k
                break
            still = all(np.linalg.norm(H[j][3] - H[j - 1][3]) < 2e-4 for j in range(k - 4, k + 1))
            if still:
                onset = k
                break
        o = H[onset]
        window = H[onset:]
        contacts = sorted({c for w in window for c in w[5]})
        first_contact = next(((w[1], w[2], w[5]) for w in window if w[5]), None)
        return dict(
            obj=h,
            fall_skill=H[-1][1],
            onset_skill=o[1],
            onset_in_skill=o[2],
            held_at_onset=o[4],
            onset_z=round(float(o[3][2]), 3),
            steps_onset_to_floor=H[-1][0] - o[0],
            contacts=contacts,
            first_contact=first_contact,
            ee_dist_onset=round(o[6], 3),
            base_dist_onset=round(o[7], 3),
            goal_dist_onset=round(float(np.linalg.norm(o[3] - self.goals[h])), 3)
            if h in self.goals
            else None,
            goal_dxy_dz=[
                round(float(np.hypot(*(o[3][:2] - self.goals[h][:2]))), 3),
                round(float(o[3][2] - self.goals[h][2]), 3),
            ]
            if h in self.goals
            else None,
        )


rows = []
for i, spec in enumerate(specs):
    obs = Obs(spec)
    r = agent.run(env, spec, scenario, start + i, observer=obs)
    rows.append(
        dict(
            index=start + i, full=r.full_success, failure=r.failure, detail=r.failure_detail, falls=obs.falls
        )
    )
    print(start + i, r.full_success, r.failure, obs.falls, flush=True)
json.dump(rows, open(out, "w"), indent=1, default=str)
