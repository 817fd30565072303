"""How often a scripted teacher succeeds alone on its student's task with noise of several stds on its
executed actions (skills.imitate's round 0: its training-layout episodes), thirty-eighth session:

    python docs/results/hab/diagnostics/teach_place/teacher_noise.py skills/checkpoints/place.pt 20 0 0.1 0.3
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from skills.imitate import SEED, _student, record
from skills.registry import make_env
from skills.scripted import make_scripted
from skills.warmstart import load_source
from tpsrl.engine.inference import single_thread_acting


def main(source: str, episodes: int, noises: list[float]) -> None:
    single_thread_acting()
    _, skill, fields = load_source(source, Path("/nonexistent/unused.pt"))
    env = make_env(skill, **fields)
    student = _student(source)
    for noise in noises:
        rng, wins = np.random.default_rng(0), 0
        for k in range(episodes):
            _, ok = record(env, student, make_scripted(skill), SEED + k, None, student.keys, noise, rng)
            wins += ok
        print(f"noise {noise}: {wins} of {episodes}", flush=True)
    env.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), [float(x) for x in sys.argv[3:]])
