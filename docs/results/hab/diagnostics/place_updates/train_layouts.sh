#!/bin/bash
# Does place fail held-out layouts more than the layouts it trained on? The shipped place and s84 (whose
# training success ended highest, 0.75) on 800 HAB spawns of the training layouts (`--split train`, the
# held-out sets' seeds) by HAB's rules, against the 800 held-out (evaluate.sh).
D=docs/results/hab/diagnostics/place_updates
source .venv/bin/activate
export MUJOCO_GL=egl
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
out=$D/place_upd4x4_s84_train800.json
[ -s $out ] || python -m skills.evaluate runs/dev/place_upd4x4_s84 --split train --episodes 200 \
  --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $out
python -c "
import json; d = json.load(open('$out')); a = d['against']
for x in (d, a): print(x['policy'], f\"{100 * x['success']:.2f}% [{100 * x['ci_low']:.1f}, {100 * x['ci_high']:.1f}]\", x['failures'])
print('pairs', d['gained'], '/', d['lost'], f\"p {d['mcnemar_p']:.2g}\")"
