#!/bin/bash
# fresh_within.sh NAME...: runs/dev/NAME on four sets never used before (3.6e7-3.9e7) from the default starts
# (within 2 m), by HAB's place and force rules, against s103 on the same episodes (NAME_within800.json).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_held
PLACE="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
for name in "$@"; do
  out=$D/${name}_within800.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$name $PLACE --episodes 200 --seed 36000000,37000000,38000000,39000000 \
    --against skills/checkpoints/place.pt --json 2>/dev/null | tail -n1 > $out &
done
wait
for name in "$@"; do
  python -c "
import json; d = json.load(open('$D/${name}_within800.json')); a = d['against']
print('$name within800', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}% {a['failures']}: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
done
