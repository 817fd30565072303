#!/bin/bash
# tune.sh STEPS SEED LR: `place_nobase_tall/tune.sh`'s control fine-tune of the shipped no-base place (s139;
# `place_nobase_tall/finetune.sh`) at LR instead of 1e-4 (decayed to 0 by a cosine over STEPS): whether
# s139's 6-point loss under every 1.5M fine-tune at 1e-4 is the rate's. Writes
# runs/dev/place_nobase_lr<LR>_sSEED; resumes when rerun.
STEPS=$1 SEED=$2 LR=$3
source $(dirname $0)/../place_nobase_tall/finetune.sh
C=${C/ppo.lr=1e-4/ppo.lr=$LR}
stage place_nobase_lr${LR}_s$SEED $SEED
