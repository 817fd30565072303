#!/bin/bash
# tune.sh STEPS SEED_TALL SEED_PLAIN: two fine-tunes of the shipped no-base place (s139) side by side
# (`finetune.sh`: the rule it was trained on, 1e-4 decayed to 0 by a cosine over STEPS): one drawing each
# tall object (cracker box, mustard bottle, sugar box) three times as often as the others
# (`skill.object_types`: 9 of 20 entries, against 3 of 14), one with every type alike (the control: what the
# extra steps alone do). Writes runs/dev/place_nobase_tall_sSEED and place_nobase_plain_sSEED; resumes when rerun.
STEPS=$1
source $(dirname $0)/finetune.sh
source $(dirname $0)/mix.sh
stage place_nobase_tall_s$2 $2 "$TALL_MIX" &
stage place_nobase_plain_s$3 $3 &
wait
