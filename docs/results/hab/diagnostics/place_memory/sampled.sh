#!/bin/bash
# The shipped place (s103) on the 800 acting as habitat-baselines' evaluator acts: actions sampled from the
# policy (seeded by each episode's seed) instead of its mean; HAB's place and force rules, compared episode by episode with the
# shipped place on its mean as evaluated beside s117 (stage.sh, then place_updates/evaluate.sh: the same
# machine and code). Optional $1: the noise scale (times the policy's std; 1 by default).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_memory
S=${1:-1.0}
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
out=$D/s103_sampled_${S}_800.json
[ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --sample --noise-scale $S $HAB --json 2>/dev/null | tail -n1 > $out
python - $out $D/place_seq128_s117_800.json <<'PY'
import json, sys
from skills.evaluate import mcnemar
d, m = (json.load(open(p)) for p in sys.argv[1:])
a, b = d["outcomes"], m["against"]["outcomes"]
g, lo, p = mcnemar(a, b)
print(sys.argv[1], f"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}",
      f"against s103 on its mean {100 * m['against']['success']:.2f}%: {g} / {lo}, p {p:.2g}")
PY
