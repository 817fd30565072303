"""The place taught in one round by the scripted place whose EE steps go at full speed wherever its joint
action sits at a bound (thirty-eighth session): `Robot.ee_step` gives the step the joint targets' change
would make, a few millimetres while the joints limit the teacher; here such a step is stretched to a full
end-effector step in its direction, so the labels are as large as the shipped place's own actions.
Prints the teacher's success on `n` held-out episodes, then teaches (`--rounds 1 --episodes 200 --noise
0.1`) and writes `out`; evaluate it with skills.evaluate.

    python docs/results/hab/diagnostics/teach_place/full_speed_teacher.py 50 runs/imitate/place_full_r0.pt
"""

from __future__ import annotations

import sys

import numpy as np

from skills.evaluate import evaluate
from skills.imitate import imitate
from skills.scripted.control import Robot

plain = Robot.ee_step


def full_speed(self: Robot, arm: np.ndarray) -> np.ndarray:
    v = plain(self, arm)
    peak = float(np.abs(v).max())
    return v / peak if peak > 0.0 and float(np.abs(arm).max()) >= 0.99 else v


def main(n: int, out: str) -> None:
    Robot.ee_step = full_speed
    r = evaluate("scripted:place", n, arm_control="ee")
    print(f"teacher: {r.success:.1%} of {n} held-out, failures {r.failures}, mean steps {r.mean_steps:.0f}")
    imitate("skills/checkpoints/place.pt", out, rounds=1, episodes=200, noise=0.1)


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
