#!/bin/bash
# nobase_stage.sh SEED...: the shipped no-base place reading held_goal_sensor for obj_goal_sensor, then its own
# last stage's recipe (no base movement, spawns within 1.0 m, the gentle rule with a release away costing 2.0, 1.0M steps of
# 1e-4 decayed to 0 at HAB's 2 x 2 updates; place_reach/nobase_habitat2.sh without the habitat2 spawn), one
# run per seed side by side; then each by HAB's place rule on the 800 (its own starts: within 1.0 m) and on
# four sets never used (3.2e7-3.5e7), against the shipped no-base place on the same episodes.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_held
H=runs/dev/place_nobase_held.pt
[ -e $H ] || python -m skills.warmstart skills/checkpoints/place_nobase.pt $H --rename-sensor obj_goal_sensor:held_goal_sensor
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
train() {
  name=place_nobase_held_s$1
  [ -e runs/dev/$name ] || python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu \
    ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum \
    skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
    "skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]" \
    run.total_steps=1000000 run.init_from=$H run.wandb=disabled run.progress=false \
    run.seed=$1 run.dir=runs/dev/$name > logs/$name.log 2>&1
}
ev() {  # ev NAME SUFFIX SEEDS
  out=$D/$1_$2.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$1 --episodes 200 --seed $3 --against skills/checkpoints/place_nobase.pt \
    --set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak \
    --set goal_receptacles=$ALL --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$1 $2', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}% {a['failures']}: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
}
for s in "$@"; do train $s & done
wait
for s in "$@"; do
  ev place_nobase_held_s$s 800 1000000,2000000,3000000,4000000 &
  ev place_nobase_held_s$s fresh800 32000000,33000000,34000000,35000000 &
  wait
done
