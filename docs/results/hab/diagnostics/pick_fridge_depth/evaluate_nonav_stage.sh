#!/bin/bash
# After nonav_stage.sh: s50, s51 and s49 (shipped) in NoNav with one attempt per call on seeds 0-4 (the
# choice set of nonav_1000/), then s50 and s51 against s49 on the 800 and the fridge episodes.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonav_s50 runs/dev/pd_s49_nonav_s50 0 1 2 3 4; nonav pick_depth_fridge_s49 skills/checkpoints/pick.pt 0 1 ) &
( nonav pick_depth_nonav2_s51 runs/dev/pd_s49_nonav2_s51 0 1 2 3 4; nonav pick_depth_fridge_s49 skills/checkpoints/pick.pt 2 3 4 ) &
wait
for r in pd_s49_nonav_s50 pd_s49_nonav2_s51; do
  ( python -m skills.evaluate runs/dev/$r --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_800.json
    python -m skills.evaluate runs/dev/$r --episodes 100 --seed 7000000 --set "receptacles=('fridge',)" --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_fridge7000000.json ) &
done; wait
