#!/bin/bash
# The two continuation runs on the fridge episodes and the eighth set; then the ninth set (10000000) for them and the shipped pick.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
ev() { out=$D/$1; shift; [ -s $out ] || python -m skills.evaluate "$@" --set force_measure=peak --json 2>/dev/null | tail -n1 > $out; echo "$out $(cut -c1-160 $out)"; }
chain() {
  n=$1
  ev ${n}_fridge7000000.json runs/dev/$n --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev ${n}_seed9000000.json runs/dev/$n --episodes 200 --seed 9000000
  ev ${n}_seed10000000.json runs/dev/$n --episodes 200 --seed 10000000
}
chain pd_detour_f5_s44 &
( chain pd_detour_ff6_s45; ev shipped_seed10000000.json skills/checkpoints/pick.pt --episodes 200 --seed 10000000 ) &
wait
