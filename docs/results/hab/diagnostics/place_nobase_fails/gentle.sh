#!/bin/bash
# gentle.sh SEED...: after both.sh SEED, the no-base place's old third stage (`fresh.sh`'s: 1.0M steps
# under the gentle rule, where a place succeeds only once the object is still and an object set down that
# moves off or comes to rest outside the tolerance fails; a release away costs 2.0; 1e-4 decayed to 0;
# stage seed SEED+2000), reading both goal sensors as both.sh trained it. Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 \
  skill.observations=[held_goal_sensor,obj_goal_sensor,joint,is_holding,relative_resting_position] \
  run.wandb=disabled run.progress=false"
for s in "$@"; do
  n=place_nobase_both_s$s
  r=$(test -f runs/dev/${n}_gentle/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine run.total_steps=1000000 \
    run.init_from=runs/dev/${n}_ft/checkpoints/latest.pt run.seed=$((s + 2000)) run.dir=runs/dev/${n}_gentle $r \
    >> logs/${n}_gentle.log 2>&1 &
done
wait
