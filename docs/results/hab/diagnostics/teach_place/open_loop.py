"""A taught policy's mean action against the scripted teacher's on the teacher's own episodes (the teacher
acts; the student only follows, blind to its previous action as taught): per action dimension, the mean
absolute label and the mean absolute error, over held-out episodes (thirty-eighth session):

    python docs/results/hab/diagnostics/teach_place/open_loop.py runs/imitate/place_n01.pt 5
"""

from __future__ import annotations

import sys

import numpy as np
import torch

from skills.evaluate import EVAL_SEED, load
from skills.registry import make_env
from skills.scripted import make_scripted


def main(policy: str, episodes: int) -> None:
    student, fields = load(policy)
    env = make_env(student.skill, **{**fields, "split": "heldout"})
    runner = student.runner
    labels, errors = [], []
    for k in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        teacher = make_scripted(student.skill)
        teacher.reset(env)
        runner.reset()
        done = False
        while not done:
            clean = np.clip(teacher.act(obs, env), runner.low, runner.high).astype(np.float32)
            own = runner.act(obs)
            runner.prev_action = torch.as_tensor(clean)[None]
            labels.append(np.abs(clean))
            errors.append(np.abs(own - clean))
            obs, _, terminated, truncated, _ = env.step(clean)
            done = terminated or truncated
    env.close()
    print("mean |label| per dimension:", np.round(np.mean(labels, 0), 3).tolist())
    print("mean |error| per dimension:", np.round(np.mean(errors, 0), 3).tolist())
    print(f"{len(labels)} steps")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
