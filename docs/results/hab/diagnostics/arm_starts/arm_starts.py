"""Where the arm is when each skill call of a `tp_srl` HAB chain starts (diagnostic, thirteenth session).

For every skill call on the first N held-out episodes of a scenario: the skill, and each arm joint's
offset from its rest pose (rad, raw: the `joint` sensor's reading minus rest) after the reset-arm step
that precedes it. Chain settings as shipped unless `RESET_ARM_STEPS` is set.

    python docs/results/hab/diagnostics/arm_starts/arm_starts.py tidy_house 0 20 > arm_starts.jsonl
"""

import json
import os
import sys
from dataclasses import replace

from evaluation.agent import HierarchicalAgent, make_episode_env
from evaluation.config import EvalConfig
from evaluation.episodes import generate_episodes
from evaluation.run import prepare
from skills.scripted.control import REST_JOINTS
from tpsrl.engine.inference import single_thread_acting

scenario, start, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
single_thread_acting()
cfg = EvalConfig(scenario=scenario, agent="tp_srl", checkpoints=os.environ.get("CHECKPOINTS", ""))
sources, depth = prepare(cfg)
agent = HierarchicalAgent("tp_srl", sources)
if os.environ.get("RESET_ARM_STEPS"):
    agent.cfg = replace(agent.cfg, reset_arm_steps=int(os.environ["RESET_ARM_STEPS"]))
env = make_episode_env(depth)

for i, spec in enumerate(generate_episodes(scenario, start + n, 0)[start:]):
    calls = []

    def hook(env, episode, call, spec, calls=calls) -> None:  # noqa: ANN001
        off = env.backend.arm_qpos - REST_JOINTS
        calls.append({"skill": call.skill, "off": [round(float(v), 3) for v in off]})

    agent.call_hook = hook
    r = agent.run(env, spec, scenario, start + i)
    for c in calls:
        print(json.dumps({"index": start + i, **c, "full": bool(r.full_success)}), flush=True)
