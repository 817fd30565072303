"""Pick outcomes by the target's receptacle and start distance (near: within 1.2 m of the robot's start),
read from `python -m skills.evaluate ... --against B --json` outputs: each file's own set of episodes (its
`sets` seeds, or the seed ending its name: `..._<seed>.json`), policy A and the `against` policy B.

    python docs/results/hab/diagnostics/pick_seeds_device/by_receptacle.py <json> [<json> ...]
"""

from __future__ import annotations

import json
import math
import sys
from collections import defaultdict
from pathlib import Path

from skills.registry import make_env


def seeds_of(path: str, record: dict) -> list[int]:
    if "sets" in record:
        per = record["episodes"] // len(record["sets"])
        return [s["seed"] + k for s in record["sets"] for k in range(per)]
    first = int(Path(path).stem.rsplit("_", 1)[-1].removeprefix("seed"))
    return [first + k for k in range(record["episodes"])]


def main(paths: list[str]) -> None:
    env = make_env(
        "pick", near_furniture_prob=0.5, spawn_clearance=0.32, force_measure="peak", split="heldout"
    )
    rows: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])  # episodes, A's successes, B's successes
    names: dict[str, set[str]] = {"A": set(), "B": set()}
    for path in paths:
        record = [json.loads(line) for line in open(path) if line.startswith("{")][-1]
        names["A"].add(record["policy"])
        names["B"].add(record["against"]["policy"])
        for seed, a, b in zip(
            seeds_of(path, record), record["outcomes"], record["against"]["outcomes"], strict=True
        ):
            env.reset(seed=seed)
            spec = env.backend.spec
            target = next(o for o in spec.objects if o.handle == spec.targets[0].handle)
            far = math.hypot(target.pos[0] - spec.robot.x, target.pos[1] - spec.robot.y) > 1.2
            key = f"{(target.receptacle or 'none').split('_')[0]} {'far' if far else 'near'}"
            for k in (key, "all"):
                rows[k][0] += 1
                rows[k][1] += int(a)
                rows[k][2] += int(b)
    env.close()
    a_name, b_name = (", ".join(sorted(names[k])) for k in ("A", "B"))
    print(f"{'receptacle':18s} {'episodes':>8s}  A ({a_name})  B ({b_name})")
    for key, (n, a, b) in sorted(rows.items(), key=lambda kv: -kv[1][0]):
        print(f"{key:18s} {n:8d}  {a:4d} {a / n:6.1%}  {b:4d} {b / n:6.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
