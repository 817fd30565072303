#!/bin/bash
# record_h2.sh: 800 training-layout episodes of the no-base place's task drawn by Habitat 2.0's per-skill
# spawn (`skill.spawn_rule=habitat2`: in front of the fridge or open drawer, else the free cell nearest the
# goal), every goal once, from seed 3000000 -> docs/results/starts/place_nobase_h2_train.json (never
# overwritten): a bank that mixes that spawn into training (`BANK=... finetune.sh`).
source .venv/bin/activate
export MUJOCO_GL=egl
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
out=docs/results/starts/place_nobase_h2_train.json
test -s $out || python -m skills.starts --task place --set base_movement=False --set spawn_max_dist=1.0 \
  --set spawn_rule=habitat2 --set goal_receptacles="$ALL" --split train --episodes 800 --seed 3000000 --out $out
