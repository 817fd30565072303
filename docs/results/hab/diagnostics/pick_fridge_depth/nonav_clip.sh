#!/bin/bash
# s78's stage (nonav_frozen.sh: 3M steps from s53, s74's share of NoNav starts, input statistics held) with
# the inputs clipped at 30 standard deviations instead of 10 (`policy.obs_clip=30`, seed 80). At 10 the held
# statistics make the object sensor read at most ~2.4 m ahead and ~2.0 m behind (x) and ~3 m sideways: NoNav's
# first picks start a median ~5 m away, and the shipped s51's first picks fall from 91% under 2 m to 22% at
# 6-8 m (python -m evaluation.start_distance). At 30 every input inside 10 reads as before. Then the 800 and
# NoNav seeds 30-34. `nonav_clip.sh s51` runs the same from the shipped s51 at s51's own share (NoNav's bank x2
# + the fridge bank at 0.5, seed 81; started once s78's training ended, stopped at 1.24M steps).
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
N=$NONAV_BANK
F=$FRIDGE_BANK
if [ "$1" = s51 ]; then
  name=pd_s51_clip30_s81 from=docs/results/runs/pick_depth_nonav_s51/pick.pt banks="$N,$N,$F" p=0.5 seed=81
else
  name=pd_s53_clip30_s80 from=runs/dev/pd_s49_nonav3_s53 banks="$N,$N,$N,$F" p=0.6 seed=80
fi
pick_stage $name $from 3000000 "$banks" $p $seed ppo.obs_stats_until=500000 policy.obs_clip=30
eight_hundred $name
nonav pick_depth_$name runs/dev/$name 30 31 32 33 34
