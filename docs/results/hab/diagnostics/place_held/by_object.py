"""Place outcomes by the held object, with where it was let go: how far the object's centre and the end
effector were from the goal at the release step.

    python docs/results/hab/diagnostics/place_held/by_object.py POLICY SEEDS N OUT.json [spawn_rule]
    python docs/results/hab/diagnostics/place_held/by_object.py --table OUT.json...
    python docs/results/hab/diagnostics/place_held/by_object.py --pair A.json B.json

The first form runs `N` held-out episodes from each seed of `SEEDS` (comma-separated; seed + k, as
`skills.evaluate` draws them) by HAB's place and force rules (`place_reach/reach.py`'s `HAB`), with
`spawn_rule` (default: the policy's own) for the task's starts, and writes one row per episode. The
second prints success and failure causes per object type (tallest last) and per goal receptacle, then
each release away from the goal: the object, its centre's and the end effector's distances to the goal.
The third compares two runs of the same episodes object by object: episodes, placed, released away.
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "place_reach"))
from reach import HAB  # noqa: E402

from skills.evaluate import failure_causes, load  # noqa: E402
from skills.registry import make_env  # noqa: E402
from tpsrl.sim.mujoco.objects import object_type  # noqa: E402


def run(policy: str, seeds: list[int], n: int, spawn_rule: str | None) -> list[dict]:
    skill, fields = load(policy)
    rule = {"spawn_rule": spawn_rule} if spawn_rule else {}
    env = make_env(skill.skill, **{**fields, **HAB, **rule, "split": "heldout"})
    rows = []
    for seed in seeds:
        for k in range(n):
            obs, _ = env.reset(seed=seed + k)
            b, target = env.backend, env.backend.spec.targets[0]
            kind = next(o.type for o in b.spec.objects if o.handle == target.handle)
            goal, released, done = np.array(target.goal), None, False
            skill.reset(env)
            while not done:
                was_held = b.held == target.handle
                obj, ee = b.object_pos(target.handle), b.ee_pos_world
                obs, _, term, trunc, info = env.step(skill.act(obs, env))
                done = term or trunc
                if was_held and b.held != target.handle and released is None:
                    released = [float(np.linalg.norm(obj - goal)), float(np.linalg.norm(ee - goal))]
            stats = info["episode_stats"]
            rows.append(
                {
                    "seed": seed + k,
                    "object": kind,
                    "receptacle": target.goal_receptacle,
                    "success": stats.get("success", 0.0) > 0.5,
                    "causes": failure_causes(stats),
                    "released": released,
                }
            )
    env.close()
    return rows


def table(paths: list[str]) -> None:
    for path in paths:
        rows = json.load(open(path))
        print(f"{path}: {sum(r['success'] for r in rows)} of {len(rows)}")
        for key, order in (("object", lambda t: object_type(t).half_height), ("receptacle", str)):
            groups = defaultdict(list)
            for r in rows:
                groups[r[key]].append(r)
            for name in sorted(groups, key=order):
                g = groups[name]
                causes = dict(Counter(c for r in g for c in r["causes"]).most_common())
                extra = f" half height {object_type(name).half_height:.3f}" if key == "object" else ""
                print(
                    f"  {name:16s}{extra} {len(g):4d} {100 * sum(r['success'] for r in g) / len(g):6.1f}%  {causes}"
                )
        away = [r for r in rows if "release_away" in r["causes"]]
        print(f"  released away ({len(away)}): object / EE to the goal (m)")
        for r in sorted(away, key=lambda r: object_type(r["object"]).half_height):
            print(
                f"    {r['object']:16s} {r['receptacle']:16s} {r['released'][0]:.3f} / {r['released'][1]:.3f}"
            )


def pair(path_a: str, path_b: str) -> None:
    a, b = json.load(open(path_a)), json.load(open(path_b))
    if [(r["seed"], r["object"]) for r in a] != [(r["seed"], r["object"]) for r in b]:
        raise SystemExit(f"{path_a} and {path_b} hold different episodes")
    rows = defaultdict(lambda: [0, 0, 0, 0, 0])
    for x, y in zip(a, b, strict=True):
        t = rows[x["object"]]
        t[0] += 1
        t[1] += x["success"]
        t[2] += y["success"]
        t[3] += "release_away" in x["causes"]
        t[4] += "release_away" in y["causes"]
    print(f"{'object':16s} episodes  placed A / B  released away A / B   (A {path_a}, B {path_b})")
    for name in sorted(rows, key=lambda t: object_type(t).half_height):
        n, pa, pb, ra, rb = rows[name]
        print(f"{name:16s} {n:8d}  {pa:8d} / {pb:<3d}  {ra:10d} / {rb}")
    total = [sum(t[i] for t in rows.values()) for i in range(5)]
    print(f"{'all':16s} {total[0]:8d}  {total[1]:8d} / {total[2]:<3d}  {total[3]:10d} / {total[4]}")


def main(argv: list[str]) -> None:
    if argv[0] == "--pair":
        pair(argv[1], argv[2])
        return
    if argv[0] == "--table":
        table(argv[1:])
        return
    rule = argv[4] if len(argv) > 4 else None
    rows = run(argv[0], [int(s) for s in argv[1].split(",")], int(argv[2]), rule)
    Path(argv[3]).write_text(json.dumps(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
