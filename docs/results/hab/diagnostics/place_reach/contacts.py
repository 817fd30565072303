"""What the robot and the held object touch while a place carries the object to a fridge goal (the
fifty-third session's trace; earlier sessions left it open: `place_gamma/fridge_trace.py` showed the no-base
place stopping 0.28-0.80 m short, its arm pressing where it stands).

    python docs/results/hab/diagnostics/place_reach/contacts.py POLICY EPISODES > OUT.txt

POLICY on the fridge-only episodes of `place_gamma/nobase_fridge_60.json` (seed 13,000,000 + k; HAB's place
rule, its force rule's peak, no shut rule): over every step on which the object is still held, each contact of a robot geom or the held object
with anything outside the robot, counted by (toucher, the other geom's name, else its body's) where toucher is `arm` (shoulder
to gripper), `base` (the rest of the robot) or `object`. Per episode: the outcome, the held steps, the
three most frequent contacts, the base's start in the fridge's frame (x out of its front, the walls at
|y| = 0.38, its front at x = 0.35), whether an arm joint ends within 0.05 rad of its limit, and at the end the
object's distance to its goal. Last, the counts summed over failed and over successful episodes.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from skills.evaluate import load
from skills.registry import make_env
from tpsrl.sim.mujoco.sim import _arm_ranges

sys.path.insert(0, str(Path(__file__).resolve().parent))
from reach import HAB as REACH_HAB  # noqa: E402  (HAB's place and force rules, held-out layouts)

HAB = {**REACH_HAB, "goal_receptacles": ("fridge",)}


def contacts(b, held_geom: set[int]) -> set[tuple[str, str]]:
    """(toucher, other geom or body) for this step's contacts of the robot or the held object with the rest."""
    m, d = b.model, b.data
    out = set()
    for i in range(d.ncon):
        g1, g2 = int(d.contact[i].geom1), int(d.contact[i].geom2)
        for a, o in ((g1, g2), (g2, g1)):
            if b._robot_geom[o] or o in held_geom:
                continue
            if a in held_geom:
                who = "object"
            elif b._arm_geom[a]:
                who = "arm"
            elif b._robot_geom[a]:
                who = "base"
            else:
                continue
            out.add((who, m.geom(o).name or m.body(int(m.geom_bodyid[o])).name))
    return out


def main(policy_path: str, count: int) -> None:
    policy, fields = load(policy_path)
    env = make_env("place", **{**fields, **HAB})
    limits = np.array(_arm_ranges())
    totals = {True: Counter(), False: Counter()}
    for k in range(count):
        obs, _ = env.reset(seed=13_000_000 + k)
        policy.reset(env)
        b, t = env.backend, env.task
        held_geom = set(b._held_geoms.get(t.target, []))
        fridge = b.model.body("fridge").id
        rot, at = b.data.xmat[fridge].reshape(3, 3), b.data.xpos[fridge]
        start = (rot.T @ (np.array([*b.base_pose[:2], at[2]]) - at))[:2]
        seen: Counter = Counter()
        done, held_steps, info = False, 0, {}
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done = terminated or truncated
            if b.held == t.target:
                held_steps += 1
                seen.update(contacts(b, held_geom))
        ok = bool(info.get("is_success", info["episode_stats"].get("success", 0)))
        q = b.arm_qpos
        at_limit = [j for j, (lo, hi) in enumerate(limits) if min(q[j] - lo, hi - q[j]) < 0.05]
        gap = float(np.linalg.norm(b.object_pos(t.target) - t.goal))
        fail = [key for key, v in info["episode_stats"].items() if key.startswith("fail/") and v]
        top = ", ".join(f"{w}:{body} {n}" for (w, body), n in seen.most_common(3))
        print(
            f"{k:2d} {'ok  ' if ok else 'FAIL'} {','.join(fail):18s} held {held_steps:3d} end gap {gap:.2f} m "
            f"limit {at_limit} start ({start[0]:+.2f}, {start[1]:+.2f})  {top}"
        )
        totals[ok].update(seen)
    env.close()
    for ok in (False, True):
        print(f"\n{'successes' if ok else 'failures'}: held-step contacts, most frequent")
        for (w, body), n in totals[ok].most_common(12):
            print(f"  {w:6s} {body:28s} {n}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 60)
