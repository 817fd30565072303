#!/bin/bash
# both.sh SEED...: the no-base place trained from scratch as shipped (`make train-skills`' stages
# nobase_held and nobase_held_ft: 2,533,376 steps under HAB's place rule at a constant rate, then 1.0M
# decayed to 0 by a cosine; stage seeds SEED, SEED+1000), reading obj_goal_sensor (the goal from the
# gripper) beside held_goal_sensor (from the held object's centre): the two differ by where the object's
# centre hangs below the cup, so the policy can tell a tall object from a short one. One chain per seed,
# side by side. Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.release_speed=0 skill.settle_speed=0 \
  skill.observations=[held_goal_sensor,obj_goal_sensor,joint,is_holding,relative_resting_position] \
  run.wandb=disabled run.progress=false"
stage() {  # stage NAME OVERRIDES...
  name=$1; shift
  r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C "$@" run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
}
chain() {
  s=$1 n=place_nobase_both_s$1
  stage $n ppo.lr_schedule=constant run.total_steps=2533376 run.seed=$s &&
  stage ${n}_ft ppo.lr_schedule=cosine run.total_steps=1000000 \
    run.init_from=runs/dev/$n/checkpoints/latest.pt run.seed=$((s + 1000))
}
for s in "$@"; do chain $s & done
wait
