#!/bin/bash
# From s74 (NoNav's first pick 59.1%, its own task 87.75% of the 800): 1.2M steps with the training-layout
# pick episodes s74 fails (skills.starts --failures-of, HAB's peak force rule; the bank that once took the
# pick 84.5 -> 88.0%) listed twice beside NoNav's first-pick bank at 0.5 (~33% and ~17%), seed 77; then the
# 800 --against the shipped s51 and NoNav seeds 30-34.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
N=$NONAV_BANK
F=runs/dev/pick_s74_failed_train.json
[ -f $F ] || python -m skills.starts --task pick --split train --episodes 2400 --seed 21000000 --set force_measure=peak \
  --failures-of runs/dev/pd_s53_nonavlong_s74 --out $F
pick_stage pd_s74_failed_s77 runs/dev/pd_s53_nonavlong_s74 1200000 "$F,$F,$N" 0.5 77
( eight_hundred pd_s74_failed_s77 ) &
( nonav pick_depth_failed_s77 runs/dev/pd_s74_failed_s77 30 31 32 33 34 ) &
wait
