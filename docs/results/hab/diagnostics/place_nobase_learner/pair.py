"""Pairs an evaluation JSON with s139's mean-action outcomes on the same episodes (sixty-second session).

    python docs/results/hab/diagnostics/place_nobase_learner/pair.py JSON...

s139's outcomes on 4.0e7-4.3e7 x 200 come from `place_nobase_seeds/place_nobase_fresh_s164_ft_40e6.json`'s
`against` (the same episodes, its episode_set checked); each JSON's own outcomes against them, exact McNemar.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from skills.evaluate import mcnemar

HERE = Path(__file__).resolve().parent
PAIRED = HERE.parent / "place_nobase_seeds" / "place_nobase_fresh_s164_ft_40e6.json"
S139 = json.loads(PAIRED.read_text())["against"]

for path in sys.argv[1:]:
    d = json.loads(Path(path).read_text())
    if d["episode_set"] != S139["episode_set"]:
        sys.exit(f"{path}: other episodes than s139's on 4.0e7-4.3e7 x 200")
    gained, lost, p = mcnemar(d["outcomes"], S139["outcomes"])
    print(
        f"{Path(path).stem}: {100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] "
        f"{d['failures']} against s139's mean action {100 * S139['success']:.2f}%: {gained} / {lost}, p {p:.2g}"
    )
