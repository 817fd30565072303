#!/bin/bash
# Continue the depth + detour fine-tune (pd_detour_f_s41, 1.2M) for 2.4M more steps, two fridge-bank weights.
# (run then from runs/dev/pd_detour_f_s41/checkpoints/latest.pt; the same weights are kept as docs/results/runs/pick_depth_detour_s41/pick.pt)
source .venv/bin/activate
B=docs/results/starts
FF="'$B/pick_fridge_train.json,$B/pick_failed2_train.json'"
C="run.init_from=docs/results/runs/pick_depth_detour_s41/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 run.total_steps=2400000 run.wandb=disabled run.progress=false"
python -m skills.train skill=pick $C skill.start_bank=$B/pick_fridge_train.json skill.start_bank_prob=0.5 run.seed=44 run.dir=runs/dev/pd_detour_f5_s44 "$@" > logs/pd_detour_f5_s44.log 2>&1 &
python -m skills.train skill=pick $C skill.start_bank=$FF skill.start_bank_prob=0.6 run.seed=45 run.dir=runs/dev/pd_detour_ff6_s45 "$@" > logs/pd_detour_ff6_s45.log 2>&1 &
wait
