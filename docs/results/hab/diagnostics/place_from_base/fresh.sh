#!/bin/bash
# fresh.sh SEED...: the no-base place trained from scratch as it was shipped (`make train-skills`' three
# stages: 2,533,376 steps under HAB's place rule at a constant rate, 1.0M decayed to 0 by a cosine, then
# 1.0M under the gentle rule with a release away costing 2.0 at 1e-4 decayed to 0), reading
# held_goal_sensor for obj_goal_sensor from the first step; one chain per seed, side by side (stage seeds
# SEED, SEED+1000, SEED+2000). Resumes when rerun. OBS (an observation list) and NAME (the runs' prefix,
# runs/dev/NAME_sSEED...) change what it reads and where it writes (`place_nobase_fails/both.sh`); EXTRA
# (overrides) goes to every stage (`place_nobase_tall/fresh.sh`), GENTLE=0 stops after the second stage, RULE
# (overrides) replaces the first two stages' place rule, HAB's (`place_nobase_rest/fresh.sh`), and STEPS1 sets
# the first stage's length (`place_nobase_long/fresh.sh`).
source .venv/bin/activate
export MUJOCO_GL=egl
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 \
  skill.observations=${OBS:-[held_goal_sensor,joint,is_holding,relative_resting_position]} \
  run.wandb=disabled run.progress=false $EXTRA"
stage() {  # stage NAME OVERRIDES...
  name=$1; shift
  r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C "$@" run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
}
RULE=${RULE:-skill.release_speed=0 skill.settle_speed=0}
chain() {
  s=$1 n=${NAME:-place_nobase_fresh}_s$1
  stage $n $RULE ppo.lr_schedule=constant run.total_steps=${STEPS1:-2533376} run.seed=$s &&
  stage ${n}_ft $RULE ppo.lr_schedule=cosine run.total_steps=1000000 \
    run.init_from=runs/dev/$n/checkpoints/latest.pt run.seed=$((s + 1000)) &&
  [ "${GENTLE:-1}" != 0 ] && stage ${n}_gentle skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine run.total_steps=1000000 \
    run.init_from=runs/dev/${n}_ft/checkpoints/latest.pt run.seed=$((s + 2000))
}
for s in "$@"; do chain $s & done
wait
