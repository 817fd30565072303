#!/bin/bash
# fridge.sh NAME: the pick NAME (docs/results/runs/NAME/pick.pt) against the shipped s83 on pick episodes whose object
# is in the fridge (200 held-out from seed 7000000, as the forty-second session's `*_fridge7000000.json` drew 100),
# by HAB's peak force rule: NAME_fridge7000000.json (~4 min on 2 cores).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/pick_s83_fail
python -m skills.evaluate docs/results/runs/$1/pick.pt --episodes 200 --seed 7000000 --set "receptacles=('fridge',)" \
  --set force_measure=peak --against docs/results/runs/pick_depth_back_s83/pick.pt --json 2>/dev/null | tail -n1 \
  > $D/$1_fridge7000000.json
