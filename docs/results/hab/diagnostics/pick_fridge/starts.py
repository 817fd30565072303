"""A pick policy on held-out episodes whose object is in the fridge: outcome by where the robot starts.

    python docs/results/hab/diagnostics/pick_fridge/starts.py skills/checkpoints/pick.pt 100
    python docs/results/hab/diagnostics/pick_fridge/starts.py scripted:pick 100

The pick task's own episodes (HAB's spawns: within 2 m of the object, near furniture half the time) with
every object in the fridge, seeds 2,000,000 + k, judged by HAB's force rule (`force_measure=peak`). The
start is placed in the fridge's frame (x out of its front, y across it; the front face is at x = 0.35 m,
the sides at y = +-0.4 m, the door hinged at the front's +y edge): "front" when the base centre starts
more than 0.9 m out (clear of the front face by more than the base's radius and a margin), else
"beside" the fridge, on the door's side (y > 0) or the other. One line per episode, then the table.
"""

from __future__ import annotations

import sys
from collections import Counter

from receptacles import play  # beside this file

from skills.evaluate import failure_causes, load
from skills.registry import make_env
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.mujoco.layout import make_layout

SEED = 2_000_000
FIELDS = {
    "split": "heldout",
    "receptacles": ("fridge",),
    "spawn_clearance": 0.32,
    "near_furniture_prob": 0.5,
    "spawn_max_dist": 2.0,  # HAB's, whatever the policy was trained with
    "force_measure": "peak",
}
FRONT_X = 0.9  # m out of the fridge's centre: the front face (0.35) + base radius (0.3) + a margin


def start_class(lx: float, ly: float) -> str:
    if lx > FRONT_X:
        return "front"
    return "beside, door side" if ly > 0 else "beside, other side"


def main(policy: str, episodes: int) -> None:
    single_thread_acting()
    skill_policy, fields = load(policy)
    env = make_env("pick", **{**fields, **FIELDS})
    runs: Counter[str] = Counter()
    wins: Counter[str] = Counter()
    for k in range(episodes):
        obs, _ = env.reset(seed=SEED + k)
        b = env.backend
        fridge = next(f for f in make_layout(b.spec.layout).furniture if f.kind == "fridge")
        x, y, _ = b.base_pose
        lx, ly = fridge.to_local(x, y)
        steps, info = play(env, skill_policy, obs)
        stats = info["episode_stats"]
        ok = stats.get("success", 0.0) > 0.5
        outcome = "success" if ok else ",".join(failure_causes(stats)) or "timeout"
        ex, ey = fridge.to_local(*b.base_pose[:2])
        cls = start_class(lx, ly)
        runs[cls] += 1
        wins[cls] += ok
        print(
            f"{k:4d} {outcome:8s} start ({lx:5.2f}, {ly:5.2f}) {cls:18s} end ({ex:5.2f}, {ey:5.2f}) steps {steps}"
        )
    print(f"\n{policy}, {episodes} episodes, objects in the fridge:")
    for cls in ("front", "beside, other side", "beside, door side"):
        print(f"  {cls:18s} {wins[cls]:3d} of {runs[cls]:3d}")
    print(f"  {'all':18s} {sum(wins.values()):3d} of {episodes:3d}")
    env.close()


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
