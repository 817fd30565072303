"""A pick evaluated alone on the 2200 (`skills.evaluate ... --seed 1000000,...,12000000 --json`) against another
on the same episodes, by default s83 from its outcomes in ship_s69/s83_2200.json (evaluated there beside s69):
success with a 95% Wilson interval for each and the exact McNemar p.

    python docs/results/hab/diagnostics/pick_s83_fail/pair.py NEW_2200.json [REFERENCE_2200.json]
"""

import json
import sys
from pathlib import Path

from skills.evaluate import mcnemar, wilson_interval

new = json.loads(Path(sys.argv[1]).read_text())
ref_path = (
    Path(sys.argv[2]) if len(sys.argv) > 2 else Path(__file__).parents[1] / "ship_s69" / "s83_2200.json"
)
ref = json.loads(ref_path.read_text())
assert new["episode_set"] == ref["episode_set"], "not the same episodes"
for name, r in ((Path(sys.argv[1]).stem, new), (ref_path.stem, ref)):
    o = r["outcomes"]
    lo, hi = wilson_interval(sum(o), len(o))
    print(
        f"{name}: {sum(o)} of {len(o)}, {sum(o) / len(o):.2%} [{lo:.1%}, {hi:.1%}]; failures {r['failures']}"
    )
gained, lost, p = mcnemar(new["outcomes"], ref["outcomes"])
print(f"new alone {gained}, {ref_path.stem} alone {lost}; exact McNemar p = {p:.3g}")
