#!/bin/bash
# evaluate.sh NAME...: runs/dev/NAME by HAB's place and force rules, against s103 (the shipped place) on the
# same episodes: on the 800 (sets 1e6-4e6 x 200, spawns within 2 m; s103 was chosen on them) and on four
# sets never used before (3.2e7-3.5e7) from navmesh starts (`skill.spawn_rule=navmesh`, HAB's spawn as
# habitat-sim draws it); outputs NAME_800.json and NAME_navmesh800.json here.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_held
PLACE="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
ev() {  # ev NAME SUFFIX SEEDS SPAWN
  out=$D/$1_$2.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$1 $PLACE --set spawn_rule=$4 --episodes 200 --seed $3 \
    --against skills/checkpoints/place.pt --json 2>/dev/null | tail -n1 > $out
}
show() {
  python -c "
import json; d = json.load(open('$D/$1_$2.json')); a = d['against']
print('$1 $2', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}% {a['failures']}: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
}
for name in "$@"; do
  ev $name 800 1000000,2000000,3000000,4000000 within &
  ev $name navmesh800 32000000,33000000,34000000,35000000 navmesh &
  wait
  show $name 800
  show $name navmesh800
done
