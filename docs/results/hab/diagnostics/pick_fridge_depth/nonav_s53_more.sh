#!/bin/bash
# s53 (NoNav's bank listed three times beside the fridge bank; not shipped) against the shipped s51 on NoNav
# seeds 25-29 (unused so far), one attempt per call: with seeds 20-24, 1000 episodes each.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( nonav pick_depth_nonav3_s53 runs/dev/pd_s49_nonav3_s53 25 26 27 28 29 ) &
( nonav pick_depth_nonav_s51 skills/checkpoints/pick.pt 25 26 27 28 29 ) &
wait
