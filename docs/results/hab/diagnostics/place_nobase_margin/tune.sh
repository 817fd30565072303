#!/bin/bash
# tune.sh STEPS SEED MARGIN: a fine-tune of the shipped no-base place (s139) as `place_nobase_tall/tune.sh`'s
# control (place_nobase_plain_s146: HAB's place rule, 1e-4 decayed to 0 by a cosine over STEPS), with the
# object->goal reward counting on until the object is MARGIN (m) inside HAB's 0.15 m tolerance
# (`skill.place_margin`; training shaping only, the success rule unchanged). Writes
# runs/dev/place_nobase_margin<MARGIN>_sSEED; resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
STEPS=$1 SEED=$2 MARGIN=$3
name=place_nobase_margin${MARGIN}_s$SEED
r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 \
  ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 \
  skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position] skill.release_speed=0 \
  skill.settle_speed=0 ppo.lr=1e-4 ppo.lr_schedule=cosine run.total_steps=$STEPS \
  run.init_from=skills/checkpoints/place_nobase.pt run.wandb=disabled run.progress=false \
  skill.place_margin=$MARGIN run.seed=$SEED run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
