#!/bin/bash
# tune.sh STEPS SEED: a fine-tune of the shipped no-base place (s139) as `place_nobase_tall/tune.sh`'s control
# (place_nobase_plain_s146; `place_nobase_tall/finetune.sh`), reading held_top as well (which way the held
# object leans and how tall it is; `skills.warmstart --add-sensor held_top`, its input weights starting at 0).
# Writes runs/dev/place_nobase_top.pt (once) and runs/dev/place_nobase_top_sSEED; resumes when rerun.
STEPS=$1 SEED=$2
source $(dirname $0)/../place_nobase_tall/finetune.sh
start=runs/dev/place_nobase_top.pt
test -f $start || python -m skills.warmstart --add-sensor held_top skills/checkpoints/place_nobase.pt $start || exit 1
C=${C/relative_resting_position]/relative_resting_position,held_top] skill.top_sensor=true}
C=${C/run.init_from=skills\/checkpoints\/place_nobase.pt/run.init_from=$start}
stage place_nobase_top_s$SEED $SEED
