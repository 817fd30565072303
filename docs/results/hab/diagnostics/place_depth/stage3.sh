#!/bin/bash
# The detour reward for place (skill.detour_reward=true): the shipped place's last stage (gentle release,
# settle and clearance rules, summed force, drop penalty 2.0, 1e-4 decayed to 0, 1.2M steps) with a bank
# of detoured starts (place_detour_train.json, detour >= 0.25 m) beside the nav-stop and chain banks at 0.5
# (a bank's episodes are drawn alike: 10, 28 and 12% of the episodes, half HAB's spawns): with the reward (seed 65) and without (seed 66, the
# control). From `$1` (the shipped place, or its depth warm start with `depth`).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false"
if [ "$1" = depth ]; then
  [ -f runs/dev/place_d16_start.pt ] || python -m skills.warmstart --add-depth 16 skills/checkpoints/place.pt runs/dev/place_d16_start.pt
  C="$C run.init_from=runs/dev/place_d16_start.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000"; tag=_d16
else
  C="$C run.init_from=skills/checkpoints/place.pt"; tag=
fi
python -m skills.train $C skill.detour_reward=true run.seed=65 run.dir=runs/dev/place_detour${tag}_s65 > logs/place_detour${tag}_s65.log 2>&1 &
python -m skills.train $C run.seed=66 run.dir=runs/dev/place_detourbank${tag}_s66 > logs/place_detourbank${tag}_s66.log 2>&1 &
wait
