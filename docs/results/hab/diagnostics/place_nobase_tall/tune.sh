#!/bin/bash
# tune.sh STEPS SEED_TALL SEED_PLAIN: two fine-tunes of the shipped no-base place (s139) side by side, under
# the rule it was trained on (HAB's place rule; its observations, spawns and PPO settings as
# place_from_base/fresh.sh), at 1e-4 decayed to 0 by a cosine over STEPS: one drawing each tall object
# (cracker box, mustard bottle, sugar box) three times as often as the others (`skill.object_types`: 9 of
# 20 entries, against 3 of 14), one with every type alike (the control: what the extra steps alone do).
# Writes runs/dev/place_nobase_tall_sSEED and place_nobase_plain_sSEED; resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
STEPS=$1
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position] \
  skill.release_speed=0 skill.settle_speed=0 ppo.lr=1e-4 ppo.lr_schedule=cosine run.total_steps=$STEPS \
  run.init_from=skills/checkpoints/place_nobase.pt run.wandb=disabled run.progress=false"
source $(dirname $0)/mix.sh
stage() {  # stage NAME SEED OVERRIDES...
  name=$1 seed=$2; shift 2
  r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C run.seed=$seed "$@" run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
}
stage place_nobase_tall_s$2 $2 "$TALL_MIX" &
stage place_nobase_plain_s$3 $3 &
wait
