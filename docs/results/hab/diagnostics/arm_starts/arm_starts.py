"""Where the arm is when each skill call of a `tp_srl` HAB chain starts (diagnostic, thirteenth session).

For every skill call on the first N held-out episodes of a scenario: the skill, and each arm joint's
offset from its rest pose (rad, raw: the `joint` sensor's reading minus rest) after the reset-arm step
that precedes it. Chain settings as shipped unless `RESET_ARM_STEPS` is set.

    python docs/results/hab/diagnostics/arm_starts/arm_starts.py tidy_house 0 20 > arm_starts.jsonl
"""

import json
import os
import sys
from pathlib import Path

from evaluation.agent import AgentConfig
from skills.scripted.control import REST_JOINTS

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # chain.py, beside these folders
from chain import shipped_chain  # noqa: E402

scenario, start, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
steps = os.environ.get("RESET_ARM_STEPS")
agent, env, specs = shipped_chain(
    scenario, start, n, AgentConfig(reset_arm_steps=int(steps)) if steps else None
)

for i, spec in enumerate(specs):
    calls = []

    def hook(env, episode, call, spec, calls=calls) -> None:  # noqa: ANN001
        off = env.backend.arm_qpos - REST_JOINTS
        calls.append({"skill": call.skill, "off": [round(float(v), 3) for v in off]})

    agent.call_hook = hook
    r = agent.run(env, spec, scenario, start + i)
    for c in calls:
        print(json.dumps({"index": start + i, **c, "full": bool(r.full_success)}), flush=True)
