#!/bin/bash
# The stage's two runs against the shipped place: by goal receptacle (receptacles.sh), then the place
# table's 800 held-out episodes (sets 1e6-4e6) by HAB's place rule and force rule (peak), --against it.
D=docs/results/hab/diagnostics/place_depth
source .venv/bin/activate
export MUJOCO_GL=egl
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
ev() { out=$D/$1; shift; [ -s $out ] || python -m skills.evaluate "$@" $HAB --json 2>/dev/null | tail -n1 > $out; }
( $D/receptacles.sh hardrec_d16_s61 runs/dev/place_hardrec_d16_s61 --set force_measure=peak
  ev hardrec_d16_s61_800.json runs/dev/place_hardrec_d16_s61 --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/place.pt ) &
( $D/receptacles.sh hardrec_s62 runs/dev/place_hardrec_s62 --set force_measure=peak
  ev hardrec_s62_800.json runs/dev/place_hardrec_s62 --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/place.pt ) &
wait
