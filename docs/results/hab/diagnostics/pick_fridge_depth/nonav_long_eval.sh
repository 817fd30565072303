#!/bin/bash
# s74 (nonav_long.sh) against the shipped s51 on NoNav seeds 30-39 (unused so far; one attempt per call,
# 1000 episodes each) and on pick's 800 held-out episodes (sets 1e6-4e6, HAB's peak force rule) --against it.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/pick_fridge_depth
source $D/nonav_single.sh
( nonav pick_depth_nonavlong_s74 runs/dev/pd_s53_nonavlong_s74 30 31 32 33 34 35 36 37 38 39 ) &
( nonav pick_depth_nonav_s51 skills/checkpoints/pick.pt 30 31 32 33 34 35 36 37 38 39
  [ -s $D/pd_s53_nonavlong_s74_800.json ] || python -m skills.evaluate runs/dev/pd_s53_nonavlong_s74 --episodes 200 \
    --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null |
    tail -n1 > $D/pd_s53_nonavlong_s74_800.json ) &
wait
