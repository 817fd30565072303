# Sourced by tune.sh and place_nobase_margin/tune.sh with STEPS set: C, a fine-tune of the shipped no-base
# place (s139) under the rule it was trained on (HAB's place rule; its observations, spawns and PPO settings
# as place_from_base/fresh.sh) at 1e-4 decayed to 0 by a cosine over STEPS, and `stage NAME SEED
# OVERRIDES...`, which runs one into runs/dev/NAME (resuming when rerun).
source .venv/bin/activate
export MUJOCO_GL=egl
C="skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position] \
  skill.release_speed=0 skill.settle_speed=0 ppo.lr=1e-4 ppo.lr_schedule=cosine run.total_steps=$STEPS \
  run.init_from=skills/checkpoints/place_nobase.pt run.wandb=disabled run.progress=false"
stage() {  # stage NAME SEED OVERRIDES...
  name=$1 seed=$2; shift 2
  r=$(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C run.seed=$seed "$@" run.dir=runs/dev/$name $r >> logs/$name.log 2>&1
}
