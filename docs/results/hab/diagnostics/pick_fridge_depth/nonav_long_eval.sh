#!/bin/bash
# s74 (nonav_long.sh) against the shipped s51 on NoNav seeds 30-39 (unused so far; one attempt per call,
# 1000 episodes each) and on pick's 800 held-out episodes (sets 1e6-4e6, HAB's peak force rule) --against it.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonavlong_s74 runs/dev/pd_s53_nonavlong_s74 30 31 32 33 34 35 36 37 38 39 ) &
( nonav pick_depth_nonav_s51 skills/checkpoints/pick.pt 30 31 32 33 34 35 36 37 38 39
  eight_hundred pd_s53_nonavlong_s74 ) &
wait
