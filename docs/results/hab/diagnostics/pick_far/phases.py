"""Where a pick's steps go from far starts (the NoNav case): driving up, reaching, and returning to rest.

    python docs/results/hab/diagnostics/pick_far/phases.py skills/checkpoints/pick.pt 200 8.0

The pick task's held-out episodes (`skills.evaluate`'s, `EVAL_SEED + k`) with spawns up to MAX_DIST m
away. For each successful episode: the step the EE first came within NEAR m of the object (the drive),
the step it first held it (the reach), and the episode's last step (the return to rest). Prints medians
by start distance (base to object), and how many successes took more than HAB's 200 steps per skill call
in a chain (the pick task itself allows 300). For the drive also the base's path length over the straight
line from its start to where the drive ended (detours), and the steps over the path at full speed
(1 / 0.083 steps per metre: turning, slowing and pushing against things).
"""

from __future__ import annotations

import sys

import numpy as np

from skills.evaluate import EVAL_SEED, load
from skills.registry import make_env

NEAR = 0.5  # m, EE to object: the drive is over, the reach begins
FULL_SPEED = 10.0 / 120.0  # m per step: HAB's base velocity at full command (tpsrl.sim.mujoco.sim)
CHAIN_STEPS = 200  # HAB's step limit per skill call in a chain
BINS = (0.0, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0)


Row = tuple[float, bool, int, int, int, float, float]


def run(policy: str, episodes: int, max_dist: float) -> list[Row]:
    """(start distance, success, drive steps, reach steps, return steps, detour, slowness) per episode; the
    phases are -1 where the episode never got there, detour and slowness nan."""
    p, fields = load(policy)
    env = make_env(p.skill, **{**fields, "split": "heldout", "spawn_max_dist": max_dist})
    out = []
    for k in range(episodes):
        obs, _ = env.reset(seed=EVAL_SEED + k)
        p.reset(env)
        b, handle = env.backend, env.task.target
        x, y, _ = b.base_pose
        start = float(np.linalg.norm(b.object_pos(handle)[:2] - np.array([x, y])))
        near = grasp = -1
        n, done, path, xy = 0, False, 0.0, np.array([x, y])
        while not done:
            obs, _, terminated, truncated, info = env.step(p.act(obs, env))
            n, done = n + 1, terminated or truncated
            if near < 0:
                now = np.array(b.base_pose[:2])
                path, xy = path + float(np.linalg.norm(now - xy)), now
                if np.linalg.norm(b.ee_pos_world - b.object_pos(handle)) < NEAR:
                    near = n
                    straight = float(np.linalg.norm(now - np.array([x, y])))
            if grasp < 0 and b.held == handle:
                grasp = n
        ok = info["episode_stats"].get("success", 0.0) > 0.5
        reach = grasp - near if min(grasp, near) >= 0 else -1
        detour = path / straight if near >= 0 and straight > 0.5 else float("nan")
        slow = near * FULL_SPEED / path if near >= 0 and path > 0.5 else float("nan")
        out.append((start, ok, near, reach, n - grasp if ok else -1, detour, slow))
    env.close()
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        raise SystemExit(__doc__)
    rows = run(argv[0], int(argv[1]), float(argv[2]))
    print(
        f"{'start (m)':>10} {'episodes':>9} {'success':>8} {'drive':>6} {'reach':>6} {'return':>7} {'> 200':>6}"
        f" {'detour':>7} {'slowness':>9}"
    )
    for lo, hi in zip(BINS, BINS[1:], strict=False):
        sel = [r for r in rows if lo <= r[0] < hi]
        wins = [r for r in sel if r[1]]
        if not sel:
            continue
        med = [int(np.median([r[i] for r in wins])) if wins else -1 for i in (2, 3, 4)]
        over = sum(r[2] + r[3] + r[4] > CHAIN_STEPS for r in wins)
        detour, slow = (float(np.nanmedian([r[i] for r in wins] or [np.nan])) for i in (5, 6))
        print(
            f"{lo:>4.0f}-{hi:<5.0f} {len(sel):>9} {len(wins):>8} {med[0]:>6} {med[1]:>6} {med[2]:>7} {over:>6}"
            f" {detour:>7.2f} {slow:>9.2f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
