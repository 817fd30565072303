#!/bin/bash
# A larger NoNav share than s51's (NoNav's first-pick bank listed three times beside the fridge bank, at 0.6:
# ~41% NoNav starts, ~19% fridge), seed 53, from s49; then NoNav seeds 20-24 (unused so far) for it and s51
# (shipped), and the 800 against s51.
source .venv/bin/activate
B=docs/results/starts
D=docs/results/hab/diagnostics/pick_fridge_depth
N=$B/pick_nonav_first_train.json
python -m skills.train skill=pick run.init_from=docs/results/runs/pick_depth_fridge_s49/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false "skill.start_bank='$N,$N,$N,$B/pick_fridge_train.json'" skill.start_bank_prob=0.6 run.seed=53 run.dir=runs/dev/pd_s49_nonav3_s53 > logs/pd_s49_nonav3_s53.log 2>&1
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonav3_s53 runs/dev/pd_s49_nonav3_s53 20 21 22 23 24 ) &
( nonav pick_depth_nonav_s51 skills/checkpoints/pick.pt 20 21 22 23 24
  python -m skills.evaluate runs/dev/pd_s49_nonav3_s53 --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/pd_s49_nonav3_s53_800.json ) &
wait
