#!/bin/bash
# s51's stage again with another seed (52), alone here; then NoNav seeds 0-4 (one attempt) and the 800 against s51.
source .venv/bin/activate
B=docs/results/starts
D=docs/results/hab/diagnostics/pick_fridge_depth
python -m skills.train skill=pick run.init_from=docs/results/runs/pick_depth_fridge_s49/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false "skill.start_bank='$B/pick_nonav_first_train.json,$B/pick_nonav_first_train.json,$B/pick_fridge_train.json'" skill.start_bank_prob=0.5 run.seed=52 run.dir=runs/dev/pd_s49_nonav2_s52 > logs/pd_s49_nonav2_s52.log 2>&1
R=runs/dev/pd_s49_nonav2_s52
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonav_s52 $R 0 1 2; ) & ( nonav pick_depth_nonav_s52 $R 3 4; python -m skills.evaluate $R --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/pd_s49_nonav2_s52_800.json ) &
wait
