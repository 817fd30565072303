#!/bin/bash
# s83 (held_back.sh, chosen on the 800 and NoNav seeds 30-34) against the shipped s78 where no choice was made:
# NoNav with one attempt on seeds 50-59 (unused so far) for both, and the pick table's seven other sets
# (5e6, 6e6, 8e6-12e6) --against s78 by HAB's peak force rule.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
D=docs/results/hab/diagnostics/pick_fridge_depth
R=pd_s78_back_s83
( nonav pick_depth_s78_back_s83 runs/dev/$R 50 51 52 53 54 55 56 57 58 59 ) &
( nonav pick_depth_held_s78 skills/checkpoints/pick.pt 50 51 52 53 54 55 56 57 58 59
  out=$D/${R}_seven_more_sets.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$R --episodes 200 --seed 5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
    --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $out ) &
wait
