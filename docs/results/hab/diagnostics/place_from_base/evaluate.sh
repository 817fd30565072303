#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: runs/dev/NAME (or a checkpoint path) as a no-base place by HAB's place
# and force rules (spawns within 1.0 m, every goal once, its own starts), 200 episodes from each of the
# comma-separated SEEDS, against the no-base place shipped before this session (kept in
# docs/results/runs/place_nobase_gentle/; or the checkpoint $AGAINST) on the same episodes; writes
# NAME_SUFFIX.json here (or in $D). SPAWN (a `skill.spawn_rule`, say habitat2) draws the starts by that rule
# for both policies (the goals stay those of the default rule).
#   the 800:            evaluate.sh 800 1000000,2000000,3000000,4000000 NAME
#   used, not chosen:   evaluate.sh 32e6 32000000,33000000,34000000,35000000 NAME
#   never used before:  evaluate.sh 40e6 40000000,41000000,42000000,43000000 NAME
source .venv/bin/activate
export MUJOCO_GL=egl
D=${D:-docs/results/hab/diagnostics/place_from_base}
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
suffix=$1 seeds=$2; shift 2
ev() {
  name=$(basename $1 .pt); out=$D/${name}_$suffix.json
  path=$1; [ -e $path ] || path=runs/dev/$1
  [ -s $out ] || python -m skills.evaluate $path --episodes 200 --seed $seeds --against ${AGAINST:-docs/results/runs/place_nobase_gentle/place_nobase.pt} \
    --set spawn_max_dist=1.0 --set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 \
    --set force_measure=peak --set goal_receptacles="$ALL" ${SPAWN:+--set spawn_rule=$SPAWN} --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$name $suffix', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}% {a['failures']}: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
}
for name in "$@"; do ev $name & done
wait
