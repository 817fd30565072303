#!/bin/bash
# Fiftieth session: the shipped place (s103) against the place shipped before it on two held-out sets no
# place was chosen on or measured on before (seeds 18e6, 19e6; 200 each), by HAB's place and force rules.
# BEFORE: the place before, e.g. `git show 98a238b:skills/checkpoints/place.pt > /tmp/place_lstm_clear.pt`.
D=docs/results/hab/diagnostics/place_books
BEFORE=${BEFORE:-/tmp/place_lstm_clear.pt}
source .venv/bin/activate
export MUJOCO_GL=egl
H="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak"
for s in 18000000 19000000; do
  out=$D/s103_fresh_$s.json
  [ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt --episodes 200 --seed $s --against $BEFORE $H \
    --json 2>/dev/null | tail -n1 > $out &
done
wait
