#!/bin/bash
# s74 (4M steps from s53 without `ppo.obs_stats_until`) let its input statistics move: the object sensor's
# variance rose from 0.05-0.10 to 0.19-0.92 (its scale shrank up to 3x for the near objects of its own task)
# while its own task fell to 87.75% of the 800. Two 3M-step stages with the statistics held (all sensors
# hold more than 500k samples, so none moves), 1e-4 decayed to 0:
#   s78: from s53, s74's share (NoNav's first-pick bank x3 + the fridge bank, at 0.6: ~41% NoNav starts);
#   s79: from the shipped s51, s51's share (NoNav's bank x2 + the fridge bank, at 0.5: ~29% NoNav starts).
# Then each on the 800 (--against the shipped pick) and NoNav seeds 30-34. s79 was stopped at 0.41M steps
# (its python stopped; the subshell went on to evaluate that state) to give its core to nonav_clip.sh's s80.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
N=$NONAV_BANK
F=$FRIDGE_BANK
stage() { s=$1 from=$2 banks=$3 p=$4 name=$5
  pick_stage $name $from 3000000 "$banks" $p $s ppo.obs_stats_until=500000
  eight_hundred $name
  nonav pick_depth_$name runs/dev/$name 30 31 32 33 34; }
stage 78 runs/dev/pd_s49_nonav3_s53 "$N,$N,$N,$F" 0.6 pd_s53_frozen_s78 &
stage 79 docs/results/runs/pick_depth_nonav_s51/pick.pt "$N,$N,$F" 0.5 pd_s51_frozen_s79 &
wait
