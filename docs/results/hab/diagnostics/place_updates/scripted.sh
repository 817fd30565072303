#!/bin/bash
# The headroom: the scripted place (privileged: it plans its stand and way from the layout) on the 800
# by HAB's rules, --against the shipped place, then success by the way to the goal.
D=docs/results/hab/diagnostics/place_updates
source .venv/bin/activate
export MUJOCO_GL=egl
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
out=$D/scripted_800.json
[ -s $out ] || python -m skills.evaluate scripted:place --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $out
python docs/results/hab/diagnostics/place_depth/detours.py 200 1000000,2000000,3000000,4000000 $out \
  2>/dev/null > $D/detours_scripted.txt
