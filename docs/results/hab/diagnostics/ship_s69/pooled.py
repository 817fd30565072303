"""The pick s69 (shipped for part of the sixty-ninth session) against s78 over all 2200 episodes: the table's
200 (arm_speed/pick_capped_s69.json and arm_speed/today_pick.json, both by the checkpoints' own peak force
rule) and the ten sets of s69_ten_sets.json; exact McNemar on the pairs. `python docs/results/hab/diagnostics/ship_s69/pooled.py`"""

import json
from pathlib import Path

from skills.evaluate import mcnemar, wilson_interval

HERE = Path(__file__).parent
ARM = HERE.parent / "arm_speed"
new, old = (json.loads((ARM / f).read_text()) for f in ("pick_capped_s69.json", "today_pick.json"))
ten = json.loads((HERE / "s69_ten_sets.json").read_text())
assert new["episode_set"] == old["episode_set"] and ten["settings_differ"] == {}
a, b = new["outcomes"] + ten["outcomes"], old["outcomes"] + ten["against"]["outcomes"]
for name, o in (("s69", a), ("s78", b)):
    lo, hi = wilson_interval(sum(o), len(o))
    print(f"{name}: {sum(o)} of {len(o)}, {sum(o) / len(o):.2%} [{lo:.1%}, {hi:.1%}]")
gained, lost, p = mcnemar(a, b)
print(f"s69 alone {gained}, s78 alone {lost}; exact McNemar p = {p:.3g}")
