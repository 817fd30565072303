#!/bin/bash
# A long NoNav stage: s53's recipe (NoNav's first-pick bank listed three times beside the fridge bank, at 0.6;
# the detour reward; 16x16 head depth) for 4M steps from s53 instead of 1.2M from s49, 1e-4 decayed to 0,
# seed 74. s53 stood at 50.9% of NoNav seeds 20-29 against the shipped s51's 48.6%.
source .venv/bin/activate
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
N=$NONAV_BANK
pick_stage pd_s53_nonavlong_s74 runs/dev/pd_s49_nonav3_s53 4000000 "$N,$N,$N,$FRIDGE_BANK" 0.6 74
