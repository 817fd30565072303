#!/bin/bash
# Fiftieth session: s103's levers on the no-base place (84.6% of the 800 by HAB's place rule; trained with
# neither): the shipped place_nobase widened to 256 units (`skills.warmstart --widen 256`), then 1.5M steps
# of its last stage's recipe (no base movement, spawns within 1.0 m, the gentle rule with a release away
# costing 2.0, 1e-4 decayed to 0 at HAB's 2 x 2 updates) with the shut rule and the drawer, fridge and
# shelf listed three times among the goals, seed 111. Then the 800 by HAB's place rule against the
# shipped no-base place (nobase_800.json here).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_books
W=runs/dev/place_nobase_w256.pt
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
[ -e $W ] || python -m skills.warmstart skills/checkpoints/place_nobase.pt $W --widen 256
name=place_nobase_w256_goals_s111
[ -e runs/dev/$name ] || python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu \
  policy.hidden_size=256 ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 \
  skill.force_measure=sum skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.goal_receptacles=$G ppo.lr=1e-4 \
  ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1500000 run.seed=111 run.init_from=$W \
  run.wandb=disabled run.progress=false run.dir=runs/dev/$name > logs/$name.log 2>&1
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
out=$D/nobase_800.json
[ -s $out ] || python -m skills.evaluate runs/dev/$name --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --against skills/checkpoints/place_nobase.pt --set release_speed=0 --set settle_speed=0 --set shut_tol=0 \
  --set goal_receptacles=$ALL --json 2>/dev/null | tail -n1 > $out
