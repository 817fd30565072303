#!/bin/bash
# From s49 (shipped in the forty-third session), 1.2M steps with NoNav's first-pick starts (training layouts,
# a median ~5 m from the object) beside the fridge bank, to win back the far first picks s49 lost:
# the two banks at 0.45 (s50: ~19% NoNav starts, ~26% fridge) or NoNav's listed twice at 0.5 (s51: ~29%, ~21%).
source .venv/bin/activate
B=docs/results/starts
C="run.init_from=docs/results/runs/pick_depth_fridge_s49/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false"
python -m skills.train skill=pick $C "skill.start_bank='$B/pick_nonav_first_train.json,$B/pick_fridge_train.json'" skill.start_bank_prob=0.45 run.seed=50 run.dir=runs/dev/pd_s49_nonav_s50 > logs/pd_s49_nonav_s50.log 2>&1 &
python -m skills.train skill=pick $C "skill.start_bank='$B/pick_nonav_first_train.json,$B/pick_nonav_first_train.json,$B/pick_fridge_train.json'" skill.start_bank_prob=0.5 run.seed=51 run.dir=runs/dev/pd_s49_nonav2_s51 > logs/pd_s49_nonav2_s51.log 2>&1 &
wait
