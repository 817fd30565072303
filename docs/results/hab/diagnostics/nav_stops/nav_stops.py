"""Where the learned nav stops inside `tp_srl` HAB chains (diagnostic, twelfth session).

For every nav call of the shipped `tp_srl` agent on the first N held-out episodes of a scenario: its
start (planar and on-foot distance to the goal), whether it is a first call or a re-approach (a nav to
the entity of a call that failed before), whether the robot holds an object, and where it stopped
(planar and on-foot distance; "across" when on foot is > 0.5 m longer than straight, the measure the
place start banks used).

    python docs/results/hab/diagnostics/nav_stops/nav_stops.py tidy_house 0 100 > nav_stops.jsonl
"""

import json
import sys
from pathlib import Path

import numpy as np

from evaluation.skillview import _nav_goal
from skills.scripted.control import REST_JOINTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # chain.py, beside these folders
from chain import shipped_chain  # noqa: E402

scenario, start, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
agent, env, specs = shipped_chain(scenario, start, n)


def distances(b, goal):  # noqa: ANN001, ANN201
    x, y, _ = b.base_pose
    planar = float(np.hypot(goal[0] - x, goal[1] - y))
    path = b.shortest_path(np.asarray(goal[:2], dtype=np.float64))
    return round(planar, 3), (None if path is None else round(float(path[0]), 3))


class NavCalls:
    def __init__(self, index: int) -> None:
        self.index, self.calls, self.open, self.failed = index, [], None, set()

    def hook(self, env, episode, call, spec) -> None:  # noqa: ANN001
        self.close(env)
        if call.skill != "nav_to_obj":
            return
        goal = _nav_goal(call, spec, env.backend) or tuple(env.backend.object_pos(call.target)[:2])
        planar, geo = distances(env.backend, (*goal, 0.0))
        self.open = dict(
            index=self.index,
            target=str(call),
            holding=env.backend.held is not None,
            start_planar=planar,
            start_geo=geo,
            goal=goal,
            arm_off_rest=round(float(np.abs(env.backend.arm_qpos - REST_JOINTS).max()), 3),
        )

    def close(self, env) -> None:  # noqa: ANN001
        if self.open is None:
            return
        planar, geo = distances(env.backend, (*self.open["goal"], 0.0))
        self.open.update(stop_planar=planar, stop_geo=geo)
        self.calls.append(self.open)
        self.open = None


for i, spec in enumerate(specs):
    rec = NavCalls(start + i)
    agent.call_hook = rec.hook
    r = agent.run(env, spec, scenario, start + i)
    rec.close(env)
    seen = set()
    for c, s in zip(rec.calls, [s for s in r.skills if s.skill == "nav_to_obj"], strict=False):
        c.update(steps=s.steps, done=s.done, failure=s.failure, repeat=c["target"] in seen)
        seen.add(c["target"])
        c.pop("goal")
        print(json.dumps(c), flush=True)
