#!/bin/bash
# The no-base place renamed (nobase_stage.sh's start) relearning for longer: its last stage's recipe over
# 3.0M steps instead of 1.0M (1e-4 decayed to 0 by a cosine over the run), seed 135. Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
name=place_nobase_held_long_s135
r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu \
  ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum \
  skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
  "skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]" \
  run.total_steps=3000000 run.init_from=runs/dev/place_nobase_held.pt run.wandb=disabled run.progress=false \
  run.seed=135 run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
