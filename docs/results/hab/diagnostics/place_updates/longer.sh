#!/bin/bash
# Are the shipped place's timeouts slow or stuck? The 800 by HAB's rules with 600 steps in place of HAB's
# 300 (`--set max_steps=600`; not HAB's task, a diagnostic), then success by the way to the goal.
D=docs/results/hab/diagnostics/place_updates
source .venv/bin/activate
export MUJOCO_GL=egl
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
out=$D/shipped_steps600_800.json
[ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  $HAB --set max_steps=600 --json 2>/dev/null | tail -n1 > $out
# (at 300 steps, detours.txt's shipped place row: 90.2, 70.8, 39.4%)
python docs/results/hab/diagnostics/place_depth/detours.py 200 1000000,2000000,3000000,4000000 $out \
  2>/dev/null > $D/detours_steps600.txt
