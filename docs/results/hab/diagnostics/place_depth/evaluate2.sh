#!/bin/bash
# Runs against the shipped place on the place table's 800 held-out episodes (sets 1e6-4e6) by HAB's place
# rule and force rule (peak), --against it: `evaluate2.sh RUN...` (runs/dev/<RUN>), two at a time.
D=docs/results/hab/diagnostics/place_depth
source .venv/bin/activate
export MUJOCO_GL=egl
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
for r in "$@"; do
  out=$D/${r#place_}_800.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$r --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $out &
  [ $(jobs -r | wc -l) -ge 2 ] && wait -n
done
wait
