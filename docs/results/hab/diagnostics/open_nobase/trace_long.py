"""Trace a no-base open policy over held-out episodes from Habitat 2.0's open/close spawn (seeds 5000...) with
MAX_STEPS a episode (HAB: 200; the longer-episode stages trained at 300 and 400): the step it grasps the handle,
the steps the opening first passes each mark (the last mark is the success opening: HAB's target less its
0.05), the step it lets go after that, and at the end the opening and the EE's distance from rest (success
needs it under 0.15 m, and stop).

    python docs/results/hab/diagnostics/open_nobase/trace_long.py SKILL POLICY EPISODES MAX_STEPS [ARM_SPEED]

ARM_SPEED (`skill.arm_speed`): the policy's own unless given.
"""

import sys

from skills.learned import load_skill_policy
from skills.registry import make_env
from skills.terms import ee_rest_dist

skill, path, n, max_steps = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
marks = {"open_drawer": (0.2, 0.3, 0.40), "open_fridge": (0.6, 0.9, 1.1708)}[skill]
pol = load_skill_policy(path, skill=skill)
arm_speed = sys.argv[5] if len(sys.argv) > 5 else pol.config.arm_speed
env = make_env(
    skill,
    base_movement=False,
    spawn_rule="habitat2",
    split="heldout",
    max_steps=max_steps,
    arm_speed=arm_speed,
)
for ep in range(n):
    obs, _ = env.reset(seed=5000 + ep)
    pol.reset(env)
    b, m = env.backend, env.task.marker
    held_t = let_go = None
    passed: dict[float, int] = {}
    for t in range(max_steps):
        obs, r, term, trunc, info = env.step(pol.act(obs, env))
        held_t = t if held_t is None and b.held == m else held_t
        passed.update({x: t for x in marks if x not in passed and b.articulation(m) >= x})
        if marks[-1] in passed and b.held != m and let_go is None:
            let_go = t
        if term or trunc:
            break
    print(
        ep,
        "grasp",
        held_t,
        "passed",
        passed,
        "let go",
        let_go,
        "end",
        t,
        "opening",
        round(b.articulation(m), 3),
        "EE from rest",
        round(ee_rest_dist(b), 2),
        "success",
        info["episode_stats"]["success"],
    )
