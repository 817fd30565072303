#!/bin/bash
# control_pick.sh: the control for the pick fine-tuned under the fast arm (finetune_pick_place.sh): the same 1.0M-step
# stage (seed 68, the shipped pick's settings and banks) under the capped arm, into runs/dev/capped_pick_ft (~13 min
# on 2 cores); its own task on the table's 200 held-out episodes (control_capped_ft_pick.json) and NoNav's first
# pick (nonav.sh ... capped_pick_ft capped; nonav/pick_ft.txt). Weights: docs/results/runs/pick_capped_ft_control/.
source .venv/bin/activate
export MUJOCO_GL=egl
S=docs/results/starts
D=docs/results/hab/diagnostics/arm_speed
d=runs/dev/capped_pick_ft
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=pick run.seed=68 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 \
  run.init_from=skills/checkpoints/pick.pt run.total_steps=1000000 run.wandb=disabled run.progress=false run.dir=$d \
  skill.force_measure=peak skill.depth=16 policy.image_encoder=flat \
  ppo.obs_stats_until=500000 skill.detour_reward=true skill.grip_init_mean=3.0 skill.spawn_clearance=0.32 \
  skill.near_furniture_prob=0.5 skill.start_bank_prob=0.6 \
  "skill.start_bank='$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_fridge_train.json'" \
  $r >> logs/capped_pick_ft.log 2>&1
python -m skills.evaluate $d --episodes 200 --json | tail -1 > $D/control_capped_ft_pick.json
bash $D/nonav.sh runs/eval68/nonav capped_pick_ft capped checkpoints=pick:$d/checkpoints/latest.pt
