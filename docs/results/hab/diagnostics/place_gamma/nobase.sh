#!/bin/bash
# Fifty-first session: the goal mix that s103 gained by, on the shipped no-base place at its own width (128;
# widened it unlearned: place_books/nobase*.sh). Its last stage's recipe (no base movement, spawns within
# 1.0 m, the gentle rule with a release away costing 2.0, 1e-4 decayed to 0 at HAB's 2 x 2 updates), 1.0M
# steps, with the drawer, fridge and shelf listed three times among the goals (the no-base place places
# 45% of the 800's fridge goals, 80% of the drawer's: nobase_receptacles.txt here):
#   s115: the goal mix alone;  s116: the goal mix and the shut rule (`skill.shut_tol=0.25`).
# `nobase.sh s115|s116` trains one, then its 800 by HAB's place rule against the shipped no-base place.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_gamma
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
case $1 in
  s115) name=place_nobase_goals_s115; extra="run.seed=115" ;;
  s116) name=place_nobase_goals_shut_s116; extra="skill.shut_tol=0.25 run.seed=116" ;;
  *) echo "usage: nobase.sh s115|s116" >&2; exit 2 ;;
esac
[ -e runs/dev/$name ] || python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu \
  ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum \
  skill.drop_penalty=2.0 skill.goal_receptacles=$G ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
  run.total_steps=1000000 run.init_from=skills/checkpoints/place_nobase.pt run.wandb=disabled run.progress=false \
  $extra run.dir=runs/dev/$name > logs/$name.log 2>&1
out=$D/${name}_800.json
[ -s $out ] || python -m skills.evaluate runs/dev/$name --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --against skills/checkpoints/place_nobase.pt --set release_speed=0 --set settle_speed=0 --set shut_tol=0 \
  --set goal_receptacles=$ALL --json 2>/dev/null | tail -n1 > $out
