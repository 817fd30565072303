#!/bin/bash
# `confirm_held.sh RUN`: a stage chosen on the 800 and NoNav seeds 30-34, confirmed where no choice was made:
# NoNav with one attempt on seeds 40-49 (unused so far) for it and the shipped s51, and the pick table's seven
# other sets (5e6, 6e6, 8e6-12e6, 1400 episodes) --against s51 by HAB's peak force rule.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
D=docs/results/hab/diagnostics/pick_fridge_depth
R=$1
( nonav pick_depth_$R runs/dev/$R 40 41 42 43 44 45 46 47 48 49 ) &
( nonav pick_depth_nonav_s51 skills/checkpoints/pick.pt 40 41 42 43 44 45 46 47 48 49
  out=$D/${R}_seven_more_sets.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$R --episodes 200 --seed 5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
    --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $out ) &
wait
