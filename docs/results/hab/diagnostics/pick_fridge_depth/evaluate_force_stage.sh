#!/bin/bash
# After force_stage.sh: s48 and s49 against the shipped pick on the four sets of the table row (the 800), then on six more
# sets (the fifth, sixth and seventh to tenth: 5e6, 6e6, 8e6-11e6), run after s49 was chosen on the 800.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
for r in pd_s47_fridge_end5_s48 pd_s47_fridge_s49; do
  python -m skills.evaluate runs/dev/$r --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_800.json &
done; wait
for r in pd_s47_fridge_end5_s48 pd_s47_fridge_s49; do
  python -m skills.evaluate runs/dev/$r --episodes 200 --seed 5000000,6000000,8000000,9000000,10000000,11000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_six_more_sets.json &
done; wait
