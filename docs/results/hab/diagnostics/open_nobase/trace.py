"""Trace a no-base open_drawer policy (acting on its mean) over held-out episodes from Habitat 2.0's
open/close spawn (seeds 5000...): the step it grasps the handle, the step the drawer first reaches 0.40 m
(HAB's target 0.45 less its 0.05), the step it lets go after that, and the drawer's opening at the end.

    python docs/results/hab/diagnostics/open_nobase/trace.py POLICY EPISODES
"""

import sys

from skills.learned import load_skill_policy
from skills.registry import make_env

path, n = sys.argv[1], int(sys.argv[2])
pol = load_skill_policy(path, skill="open_drawer")
env = make_env("open_drawer", base_movement=False, spawn_rule="habitat2", split="heldout")
for ep in range(n):
    obs, _ = env.reset(seed=5000 + ep)
    pol.reset(env)
    b = env.backend
    m = env.task.marker
    held_t = at_t = rel_t = None
    for t in range(200):
        obs, r, term, trunc, info = env.step(pol.act(obs, env))
        if b.held == m and held_t is None:
            held_t = t
        if b.articulation(m) >= 0.40 and at_t is None:
            at_t = t
        if at_t is not None and b.held != m and rel_t is None:
            rel_t = t
        if term or trunc:
            break
    print(ep, "grasp", held_t, "at 0.40", at_t, "released", rel_t, "end art", round(b.articulation(m), 3))
