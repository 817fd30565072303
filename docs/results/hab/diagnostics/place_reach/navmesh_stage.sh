#!/bin/bash
# s103's own last stage (the control's recipe, place_memory/control.sh) with its task's starts drawn as
# habitat-sim draws them (`skill.spawn_rule=navmesh`; the banks unchanged), seeds 126 and 127 side by side;
# then each on four sets never used (2.8e7-3.1e7, 800) from navmesh starts by HAB's rules, against s103 on
# the same episodes.
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
D=docs/results/hab/diagnostics/place_reach
PLACE="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
stage() {
  name=$1
  run "$@" run.init_from=$S skill.spawn_rule=navmesh
  out=$D/${name}_navmesh800.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$name $PLACE --set spawn_rule=navmesh --episodes 200 --seed 28000000,29000000,30000000,31000000 \
    --against skills/checkpoints/place.pt --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$name', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}%: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
}
stage place_navmesh_s126 run.seed=126 &
stage place_navmesh_s127 run.seed=127 &
wait
