"""tp_srl_nonav's first pick (one attempt; Tidy House unless nonav.sh ran with SCENARIO) under two of
`nonav.sh`'s labels (runs in OUT/<label>/seedN): success with a 95% Wilson interval per label over the episodes
both ran, and the episodes each alone succeeded in with the exact McNemar p.

    python docs/results/hab/diagnostics/arm_speed/nonav.py OUT A B     # e.g. runs/eval68/nonav capped fast

"""

import json
import sys
from pathlib import Path

from skills.evaluate import mcnemar, wilson_interval


def first_stage(run: Path) -> dict[int, bool]:
    rows = (json.loads(line) for line in (run / "results.jsonl").read_text().splitlines() if line.strip())
    return {r["index"]: bool(r["stage_success"][0]) for r in rows}


out, names = Path(sys.argv[1]), sys.argv[2:4]
res: dict[str, dict] = {n: {} for n in names}
for run in sorted((out / names[0]).glob("seed*")):
    other = out / names[1] / run.name
    if run.suffix != ".tmp" and other.is_dir():
        for n, d in zip(names, (run, other), strict=True):
            res[n].update({(run.name, i): v for i, v in first_stage(d).items()})
keys = sorted(set(res[names[0]]) & set(res[names[1]]))
for n in names:
    k = sum(res[n][i] for i in keys)
    lo, hi = wilson_interval(k, len(keys))
    print(f"{n}: first pick {100 * k / len(keys):.1f}% [{100 * lo:.1f}, {100 * hi:.1f}] of {len(keys)}")
a_alone, b_alone, p = mcnemar([res[names[0]][i] for i in keys], [res[names[1]][i] for i in keys])
print(f"{names[0]} alone {a_alone}, {names[1]} alone {b_alone}; exact McNemar p = {p:.3g}")
