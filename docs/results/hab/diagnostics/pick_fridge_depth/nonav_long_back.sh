#!/bin/bash
# s74 (4M steps with ~41% NoNav starts) reached NoNav's first pick 59.1% of seeds 30-39 against the shipped
# s51's 46.2%, but its own task fell to 87.75% of the 800 (s51 91.5%; timeouts 23 -> 49). 1.2M steps more
# from s74 with fewer far starts to win the own task back: NoNav's bank and the fridge bank at 0.3 (s75,
# ~15% each) or at 0.5 (s76, ~25% each); 1e-4 decayed to 0. Then NoNav seeds 30-34 and the 800 --against s51.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
for p in 75:0.3 76:0.5; do s=${p%%:*} q=${p#*:}
  ( pick_stage pd_s74_back_s$s runs/dev/pd_s53_nonavlong_s74 1200000 "$NONAV_BANK,$FRIDGE_BANK" $q $s
    eight_hundred pd_s74_back_s$s
    nonav pick_depth_back_s$s runs/dev/pd_s74_back_s$s 30 31 32 33 34 ) &
done
wait
