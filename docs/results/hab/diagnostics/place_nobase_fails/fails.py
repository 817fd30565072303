"""Where the no-base place fails on episodes it was never chosen on (fifty-sixth session).

    python docs/results/hab/diagnostics/place_nobase_fails/fails.py POLICY SEED EPISODES > OUT.txt

POLICY as a no-base place by HAB's place and force rules, every goal receptacle (as `place_from_base/evaluate.sh`),
episodes SEED + k. Per episode: the goal's receptacle, the kind of its start (`place_reach/reach.py`: within
the arm's planar reach, up to 0.15 m beyond, farther, a wall between, beside or behind an enclosing piece of
furniture), the outcome, whether the object is still held at the end, its end and closest distance to the
goal, the steps the held object or the arm touched furniture, and the last 50 steps' end-effector travel
(a stuck arm travels little). Last, the failures summed by kind, by receptacle and by what they touched.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np

from skills.evaluate import load
from skills.registry import make_env
from tpsrl.sim.mujoco.objects import object_type

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "place_reach"))
from contacts import contacts  # noqa: E402
from reach import HAB, kind  # noqa: E402

ALL = (
    "kitchen_counter", "kitchen_cabinet", "dining_table", "coffee_table", "sofa", "tv_stand", "shelf",
    "side_table", "bookshelf", "fridge", "drawer_0",
)  # fmt: skip
TALL = 0.085
"""Half-height (m) from which a held object counts as tall: the cracker box, mustard bottle and sugar box."""


def nobase_env(fields: dict, **overrides):
    """The no-base place's task with `fields` by HAB's place and force rules, spawns within 1.0 m, every goal
    receptacle (as `place_from_base/evaluate.sh`); `overrides` last (say `spawn_rule="habitat2"`)."""
    return make_env("place", **{**fields, **HAB, "spawn_max_dist": 1.0, "goal_receptacles": ALL, **overrides})


def redrawn(episodes, **overrides):
    """The no-base place's episodes with these seeds drawn again (a reset each, no rollout), with the shipped
    no-base place's task fields (and `overrides`, as `nobase_env`): yields the env after each reset;
    `evaluate.sh` JSONs hold 200 per seed."""
    _, fields = load("skills/checkpoints/place_nobase.pt")
    env = nobase_env(fields, **overrides)
    try:
        for seed in episodes:
            env.reset(seed=seed)
            yield env
    finally:
        env.close()


def per_set(seeds):
    """The episode seeds of an `evaluate.sh` JSON over `seeds`: 200 from each, in its order."""
    return [seed + k for seed in seeds for k in range(200)]


def held_kind(spec, handle: str) -> str:
    """The object type of `handle` in an episode spec."""
    return next(o.type for o in spec.objects if o.handle == handle)


def size_group(kind: str) -> str:
    return "tall" if object_type(kind).half_height >= TALL else "other"


def main(policy_path: str, seed: int, count: int) -> None:
    policy, fields = load(policy_path)
    env = nobase_env(fields)
    by_kind, by_rec, touched = Counter(), Counter(), Counter()
    n_kind, n_rec = Counter(), Counter()
    for k in range(count):
        obs, _ = env.reset(seed=seed + k)
        policy.reset(env)
        b, t = env.backend, env.task
        spec = b.spec
        rec = spec.targets[0].goal_receptacle
        kd = kind(spec.layout, np.array(b.base_pose[:2]), np.array(t.goal))
        held_geom = set(b._held_geoms.get(t.target, []))
        seen: Counter = Counter()
        ee: list[np.ndarray] = []
        done, closest, info = False, float("inf"), {}
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done = terminated or truncated
            ee.append(b.ee_pos_world)
            if b.held == t.target:
                closest = min(closest, float(np.linalg.norm(b.object_pos(t.target) - t.goal)))
                seen.update({w for w, _ in contacts(b, held_geom)})
        stats = info["episode_stats"]
        ok = stats.get("success", 0.0) > 0.5
        gap = float(np.linalg.norm(b.object_pos(t.target) - t.goal))
        tail = np.array(ee[-50:])
        travel = float(np.linalg.norm(np.diff(tail, axis=0), axis=1).sum()) if len(tail) > 1 else 0.0
        fail = ",".join(key[5:] for key, v in stats.items() if key.startswith("fail/") and v)
        n_kind[kd] += 1
        n_rec[rec] += 1
        if not ok:
            by_kind[kd] += 1
            by_rec[rec] += 1
            touched.update(seen.keys())
        print(
            f"{k:3d} {'ok  ' if ok else 'FAIL'} {fail:14s} {rec:16s} {kd:17s} held {int(b.held == t.target)} "
            f"gap {gap:.2f} closest {closest:.2f} steps {len(ee):3d} touch {dict(seen)} ee-travel-50 {travel:.2f}",
            flush=True,
        )
    env.close()
    print(f"\nfailures by kind:       {', '.join(f'{x} {by_kind[x]}/{n_kind[x]}' for x in n_kind)}")
    print(f"failures by receptacle: {', '.join(f'{x} {by_rec[x]}/{n_rec[x]}' for x in n_rec)}")
    print(f"failures touching (episodes): {dict(touched)}")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
