#!/bin/bash
# pick_seed.sh SPEED SEED [NAME] [JSON]: the shipped pick fine-tuned 1.0M steps at 1e-4 decayed to 0 by a cosine, with
# its own settings and start banks (docs/results/starts/), under arm speed SPEED (skill.arm_speed) with run seed SEED,
# into runs/dev/NAME (default SPEED_pick_ft_sSEED; ~13 min on 2 cores; resumes when rerun); its own task on the
# table's 200 held-out episodes under SPEED (JSON here, default pick_SPEED_sSEED.json) and NoNav's first pick
# (nonav.sh runs/eval68/nonav NAME SPEED, ~7 min). The sixty-eighth session:
#   pick_seed.sh fast 68 fast_pick_ft finetuned_pick.json        (finetune_pick_place.sh)
#   pick_seed.sh capped 68 capped_pick_ft control_capped_ft_pick.json   (its control; weights pick_capped_ft_control)
#   pick_seed.sh fast 69; pick_seed.sh capped 69                  (second seeds)
# and the capped seed 69 on seeds 50-59 beside the shipped (nonav50/, capped_s69.txt):
#   SEEDS="50 51 52 53 54 55 56 57 58 59" nonav.sh runs/eval68/nonav50 capped capped
#   SEEDS="50 ... 59" nonav.sh runs/eval68/nonav50 capped_pick_ft_s69 capped checkpoints=pick:docs/results/runs/pick_capped_ft_s69/pick.pt
speed=$1 seed=$2
name=${3:-${speed}_pick_ft_s$seed}
json=${4:-pick_${speed}_s$seed.json}
source .venv/bin/activate
export MUJOCO_GL=egl
S=docs/results/starts
D=docs/results/hab/diagnostics/arm_speed
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=pick skill.arm_speed=$speed run.seed=$seed ppo.lr=1e-4 ppo.lr_schedule=cosine \
  ppo.lr_decay_start=0.0 run.init_from=skills/checkpoints/pick.pt run.total_steps=1000000 run.wandb=disabled \
  run.progress=false run.dir=$d skill.force_measure=peak skill.depth=16 policy.image_encoder=flat \
  ppo.obs_stats_until=500000 skill.detour_reward=true skill.grip_init_mean=3.0 skill.spawn_clearance=0.32 \
  skill.near_furniture_prob=0.5 skill.start_bank_prob=0.6 \
  "skill.start_bank='$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_fridge_train.json'" \
  $r >> logs/$name.log 2>&1
python -m skills.evaluate $d --episodes 200 --json | tail -1 > $D/$json
bash $D/nonav.sh runs/eval68/nonav $name $speed checkpoints=pick:$d/checkpoints/latest.pt
