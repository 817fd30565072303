#!/bin/bash
# tune.sh STEPS SEED MARGIN: a fine-tune of the shipped no-base place (s139) as `place_nobase_tall/tune.sh`'s
# control (place_nobase_plain_s146; `place_nobase_tall/finetune.sh`), with the object->goal reward counting
# on until the object is MARGIN (m) inside HAB's 0.15 m tolerance (`skill.place_margin`; training shaping
# only, the success rule unchanged). Writes runs/dev/place_nobase_margin<MARGIN>_sSEED; resumes when rerun.
STEPS=$1 SEED=$2 MARGIN=$3
source $(dirname $0)/../place_nobase_tall/finetune.sh
stage place_nobase_margin${MARGIN}_s$SEED $SEED skill.place_margin=$MARGIN
