"""Can nav leave without knocking? Fixed base actions (40 steps) from the chain's nav starts with an object
within 0.2 m of the end effector (twenty-third session), counting the starts where an object moved 0.1 m.

    python docs/results/hab/diagnostics/nav_knock/near_probe.py
"""

import numpy as np

from skills.registry import make_env
from tpsrl.sim.episode import load_episodes

bank = load_episodes("docs/results/starts/nav_chain_near_train.json")
env = make_env("nav_to_obj", split="train", knock_dist=0.1, knock_penalty=2.0)
for name, (lin, ang) in [
    ("still", (0, 0)),
    ("back", (-1, 0)),
    ("turn+", (0, 1)),
    ("turn-", (0, -1)),
    ("fwd", (1, 0)),
]:
    knocked = 0
    for spec in bank:
        env.reset(options={"episode": spec})
        for _ in range(40):
            action = np.array([lin, ang, -1.0], dtype=np.float32)  # base linear, angular; stop off
            _, _, term, trunc, info = env.step(action)
            if term or trunc:
                knocked += info["episode_stats"].get("fail/knocked", 0) > 0
                break
    print(name, knocked, "of", len(bank))
