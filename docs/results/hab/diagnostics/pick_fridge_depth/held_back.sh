#!/bin/bash
# From the shipped s78 (89.9% of its own 2200, timeouts 75 -> 139 against s51), 1.2M steps more with fewer
# far starts to win back its own task, the input statistics held: NoNav's bank x3 + the fridge bank at 0.3
# (s82, ~20% NoNav starts) or 0.45 (s83, ~31%), 1e-4 decayed to 0. Then each on the 800 --against the
# shipped s78 and NoNav seeds 30-34 (the sets s78 was chosen on).
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
B=docs/results/starts
N=$B/pick_nonav_first_train.json
for p in 82:0.3 83:0.45; do s=${p%%:*} q=${p#*:}
  ( python -m skills.train $PICK_STAGE ppo.obs_stats_until=500000 run.init_from=docs/results/runs/pick_depth_held_s78/pick.pt \
      run.total_steps=1200000 "skill.start_bank='$N,$N,$N,$B/pick_fridge_train.json'" skill.start_bank_prob=$q run.seed=$s \
      run.dir=runs/dev/pd_s78_back_s$s > logs/pd_s78_back_s$s.log 2>&1
    eight_hundred pd_s78_back_s$s
    nonav pick_depth_s78_back_s$s runs/dev/pd_s78_back_s$s 30 31 32 33 34 ) &
done
wait
