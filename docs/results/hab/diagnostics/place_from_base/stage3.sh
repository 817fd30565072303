#!/bin/bash
# stage3.sh SEED: the shipped no-base place (s139's second stage) trained once more by HAB's place and force
# rules, 1.0M steps of 1e-4 decayed to 0 by a cosine (as s132's second stage was for the place; the gentle
# stage lowered s139 to 82.5%). Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
name=place_nobase_fresh_s139_stage3_s$1
r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 \
  ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.release_speed=0 skill.settle_speed=0 \
  skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position] ppo.lr=1e-4 ppo.lr_schedule=cosine \
  ppo.lr_decay_start=0 run.total_steps=1000000 run.init_from=runs/dev/place_nobase_fresh_s139_ft/checkpoints/latest.pt \
  run.wandb=disabled run.progress=false run.seed=$1 run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
