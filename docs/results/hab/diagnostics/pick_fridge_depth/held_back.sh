#!/bin/bash
# From the shipped s78 (89.9% of its own 2200, timeouts 75 -> 139 against s51), 1.2M steps more with fewer
# far starts to win back its own task, the input statistics held: NoNav's bank x3 + the fridge bank at 0.3
# (s82, ~20% NoNav starts) or 0.45 (s83, ~31%), 1e-4 decayed to 0. Then each on the 800 --against the
# shipped s78 and NoNav seeds 30-34 (the sets s78 was chosen on).
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
N=$NONAV_BANK
for p in 82:0.3 83:0.45; do s=${p%%:*} q=${p#*:}
  ( pick_stage pd_s78_back_s$s docs/results/runs/pick_depth_held_s78/pick.pt 1200000 "$N,$N,$N,$FRIDGE_BANK" $q $s \
      ppo.obs_stats_until=500000
    eight_hundred pd_s78_back_s$s
    nonav pick_depth_s78_back_s$s runs/dev/pd_s78_back_s$s 30 31 32 33 34 ) &
done
wait
