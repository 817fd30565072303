#!/bin/bash
# pick_seed.sh SPEED SEED: the pick's fine-tune of finetune_pick_place.sh / control_pick.sh (1.0M steps at 1e-4 decayed
# to 0, the shipped pick's settings and banks) under arm speed SPEED with run seed SEED, into
# runs/dev/SPEED_pick_ft_sSEED (~13 min on 2 cores); its own task on the table's 200 held-out episodes under SPEED
# (pick_SPEED_sSEED.json here) and NoNav's first pick (nonav.sh ... SPEED_pick_ft_sSEED SPEED, ~7 min).
# The sixty-eighth session: pick_seed.sh fast 69; pick_seed.sh capped 69 (the second seed of each arm); the capped
# one on seeds 50-59 too: SEEDS="50 ... 59" nonav.sh runs/eval68/nonav50 capped_pick_ft_s69 capped checkpoints=pick:...
# beside the shipped (nonav50/, capped_s69.txt).
speed=$1 seed=$2
source .venv/bin/activate
export MUJOCO_GL=egl
S=docs/results/starts
D=docs/results/hab/diagnostics/arm_speed
name=${speed}_pick_ft_s$seed
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=pick skill.arm_speed=$speed run.seed=$seed ppo.lr=1e-4 ppo.lr_schedule=cosine \
  ppo.lr_decay_start=0.0 run.init_from=skills/checkpoints/pick.pt run.total_steps=1000000 run.wandb=disabled \
  run.progress=false run.dir=$d skill.force_measure=peak skill.depth=16 policy.image_encoder=flat \
  ppo.obs_stats_until=500000 skill.detour_reward=true skill.grip_init_mean=3.0 skill.spawn_clearance=0.32 \
  skill.near_furniture_prob=0.5 skill.start_bank_prob=0.6 \
  "skill.start_bank='$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_fridge_train.json'" \
  $r >> logs/$name.log 2>&1
python -m skills.evaluate $d --episodes 200 --json | tail -1 > $D/pick_${speed}_s$seed.json
bash $D/nonav.sh runs/eval68/nonav $name $speed checkpoints=pick:$d/checkpoints/latest.pt
