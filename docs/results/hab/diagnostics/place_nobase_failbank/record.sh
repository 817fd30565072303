#!/bin/bash
# record.sh: the training-layout episodes of the no-base place's own task (spawns within 1.0 m, every goal
# once, as place_from_base/evaluate.sh draws them) that the shipped no-base place (s139) fails acting on its
# mean, by the rules it was trained on (its checkpoint's): 2400 episodes from seed 3000000 ->
# docs/results/starts/place_nobase_failed_train.json (never overwritten).
source .venv/bin/activate
export MUJOCO_GL=egl
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
out=docs/results/starts/place_nobase_failed_train.json
test -s $out || python -m skills.starts --task place --set base_movement=False --set spawn_max_dist=1.0 \
  --set goal_receptacles="$ALL" --split train --episodes 2400 --seed 3000000 \
  --failures-of skills/checkpoints/place_nobase.pt --out $out
