#!/bin/bash
# The shipped pick and the four fine-tunes on the fridge-only episodes (seed 7000000) and the eighth set (seed 9000000).
source .venv/bin/activate
ev() { out=docs/results/hab/diagnostics/pick_fridge_depth/$1; shift; [ -s $out ] || python -m skills.evaluate "$@" --set force_measure=peak --json 2>/dev/null | tail -n1 > $out; echo "$out $(cut -c1-200 $out)"; }
ev shipped_seed9000000.json skills/checkpoints/pick.pt --episodes 200 --seed 9000000
for n in pd_detour_f_s41 pd_ff_s42 ps_detour_ff_s43 pd_detour_ff_s40; do
  ev ${n}_fridge7000000.json runs/dev/$n --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev ${n}_seed9000000.json runs/dev/$n --episodes 200 --seed 9000000
done
