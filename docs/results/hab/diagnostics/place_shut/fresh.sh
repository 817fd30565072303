#!/bin/bash
# `fresh.sh NAME`: runs/dev/NAME on two held-out sets no run was chosen on (seeds 16e6 and 17e6, 400
# episodes) by HAB's place and force rules, --against the shipped place, into NAME_fresh.json here.
D=docs/results/hab/diagnostics/place_shut
source .venv/bin/activate
export MUJOCO_GL=egl
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
out=$D/$1_fresh.json
[ -s $out ] || python -m skills.evaluate runs/dev/$1 --episodes 200 --seed 16000000,17000000 --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $out
python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$1', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']} sets {d['sets']}\",
      f\"against {100 * a['success']:.2f}%: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
