#!/bin/bash
# The no-base place started from the shipped place (s132) with its base outputs removed (`skills.warmstart`,
# the start pick_nobase was given): by HAB's place rule it places 45.5% of the table's 200 no-base episodes
# as it is (it learned to reach with the base). Two fine-tunes side by side, 2.0M steps of 1e-4 decayed to 0
# at HAB's 2 x 2 updates, no base movement, spawns within 1.0 m, the gentle rule with a release away costing
# 2.0, 256 LSTM units as s132:
#   seed 136: the no-base place's own last-stage recipe (no clearance, no shut rule, each goal once);
#   seed 137: s132's levers too (clearance 0.25 m, the shut rule, the fridge, drawer and shelf listed three times).
# No start banks (those are with-base nav stops). Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
W=runs/dev/place_from_base.pt
[ -e $W ] || python -m skills.warmstart skills/checkpoints/place.pt $W
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu policy.hidden_size=256 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.drop_penalty=2.0 \
  ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 ppo.target_kl=0.03 \
  skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position] \
  run.total_steps=2000000 run.init_from=$W run.wandb=disabled run.progress=false"
run() {
  name=$1; shift
  r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C "$@" run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
}
run place_nobase_from_base_s136 run.seed=136 &
run place_nobase_from_base_s137 run.seed=137 skill.clear_dist=0.25 skill.shut_tol=0.25 skill.goal_receptacles=$G &
wait
