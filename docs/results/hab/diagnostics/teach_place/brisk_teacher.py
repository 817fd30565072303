"""The place taught in one round by a brisker scripted place (thirty-eighth session): through end-effector
steps the teacher's levelling has no counterpart, so while it waits for a held object to come upright
(`LEVEL_PATIENCE` steps without gain) its labels are still arms. Here it waits `patience` steps instead of
8. Teaches as `--rounds 1 --episodes 200 --noise 0.1` (its log line: the teacher's successes) and
writes `out`; evaluate it with skills.evaluate.

    python docs/results/hab/diagnostics/teach_place/brisk_teacher.py 1 runs/imitate/place_brisk.pt
"""

from __future__ import annotations

import sys

import skills.scripted.place as scripted_place
from skills.imitate import imitate


def main(patience: int, out: str) -> None:
    scripted_place.LEVEL_PATIENCE = patience
    imitate("skills/checkpoints/place.pt", out, rounds=1, episodes=200, noise=0.1)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
