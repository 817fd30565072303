#!/bin/bash
# The shipped place (s103) on the 800 acting as habitat-baselines' evaluator acts: actions sampled from the
# policy (seeded by each episode's seed) instead of its mean; HAB's place and force rules, --against the
# shipped place on its mean. Optional $1: the noise scale (times the policy's std; 1 by default).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_memory
S=${1:-1.0}
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
out=$D/s103_sampled_${S}_800.json
[ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --sample --noise-scale $S $HAB --json 2>/dev/null | tail -n1 > $out
python - $out docs/results/hab/diagnostics/place_shut/place_w256_shut_goals_s103_800.json <<'PY'
import json, sys
from skills.evaluate import mcnemar
d, m = (json.load(open(p)) for p in sys.argv[1:])
a, b = d["outcomes"], m["outcomes"]
g, lo, p = mcnemar(a, b)
print(sys.argv[1], f"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}",
      f"against s103 on its mean {100 * m['success']:.2f}%: {g} / {lo}, p {p:.2g}")
PY
