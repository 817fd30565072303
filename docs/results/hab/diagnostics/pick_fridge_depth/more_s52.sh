#!/bin/bash
# s52 (not shipped) where s51 was confirmed: NoNav seeds 10-19 (one attempt) and the seven other own-task sets against s51.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
R=runs/dev/pd_s49_nonav2_s52
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonav_s52 $R 10 11 12 13 14 15 ) &
( python -m skills.evaluate $R --episodes 200 --seed 5000000,6000000,8000000,9000000,10000000,11000000,12000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/pd_s49_nonav2_s52_seven_more_sets.json
  nonav pick_depth_nonav_s52 $R 16 17 18 19 ) &
wait
