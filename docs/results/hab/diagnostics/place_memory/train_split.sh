#!/bin/bash
# Does the shipped place (s103) do better on the layouts it was trained on? The place table's 800 episodes'
# seeds (1e6-4e6 x 200), drawn on the 24 training layouts instead of the 8 held-out ones, by HAB's place and
# force rules, on its mean; then success by the way to the goal (place_depth/detours.py, same split).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_memory
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
out=$D/s103_train_split_800.json
[ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt --split train --episodes 200 \
  --seed 1000000,2000000,3000000,4000000 $HAB --json 2>/dev/null | tail -n1 > $out
python -c "
import json; d = json.load(open('$out'))
print('$out', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\")"
