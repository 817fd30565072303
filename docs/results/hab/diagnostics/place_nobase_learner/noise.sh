#!/bin/bash
# noise.sh SCALE...: the shipped no-base place (s139) acting on sampled actions, the noise at SCALE times its
# std (`skills.evaluate --sample --noise-scale`, each episode's noise drawn from its seed), on 4.0e7-4.3e7 x
# 200 with `place_from_base/evaluate.sh`'s rules; writes s139_sampled_xSCALE_40e6.json here. On its mean action
# s139 places 86.62% of the same episodes (`place_nobase_seeds/evaluate_40e6.txt`). A JSON already there is
# kept (delete it to run that scale again).
source .venv/bin/activate
export MUJOCO_GL=egl
D=$(dirname $0)
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
for s in "$@"; do
  out=$D/s139_sampled_x${s}_40e6.json
  [ -s $out ] || python -m skills.evaluate skills/checkpoints/place_nobase.pt --episodes 200 --seed 40000000,41000000,42000000,43000000 \
    --sample --noise-scale $s --set spawn_max_dist=1.0 --set release_speed=0 --set settle_speed=0 --set clear_dist=0 \
    --set shut_tol=0 --set force_measure=peak --set goal_receptacles="$ALL" --json 2>/dev/null | tail -n1 > $out
done
