#!/bin/bash
# `evaluate.sh NAME...`: each run runs/dev/NAME on the place table's 800 held-out episodes (sets 1e6-4e6)
# by HAB's place rule and force rule (peak), --against the shipped place, into NAME_800.json here; then
# success by the way to the goal (place_depth/detours.py). Runs that are already evaluated are skipped.
# The JSONs go to $EVAL_DIR where it is set (a session's own folder), else here.
D=${EVAL_DIR:-docs/results/hab/diagnostics/place_updates}
source .venv/bin/activate
export MUJOCO_GL=egl
# (goals on every receptacle once each, the task's own draw, for runs trained with some listed more often)
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
for name in "$@"; do
  out=$D/${name}_800.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$name --episodes 200 --seed 1000000,2000000,3000000,4000000 \
    --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out')); a = d.get('against', {})
print('$name', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}%: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
done
