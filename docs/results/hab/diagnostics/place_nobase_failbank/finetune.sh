#!/bin/bash
# finetune.sh SHARE SEED...: the shipped no-base place (s139) fine-tuned 1.0M steps at 1e-4 decayed to 0 by a
# cosine under the rule it was trained on (`place_nobase_tall/finetune.sh`), with SHARE of its episodes
# drawn from the training-layout episodes it fails (record.sh's bank), as the pick shipped since the
# thirty-ninth session was fine-tuned (half its episodes from its own failures). One run per seed, side by
# side (runs/dev/place_nobase_failbank<SHARE>_sSEED); resumes when rerun. BANK (another bank: `record.sh h2`'s)
# and NAME (the runs' prefix) change what it draws from and where it writes.
STEPS=1000000
source $(dirname $0)/../place_nobase_tall/finetune.sh
share=$1; shift
bank=${BANK:-docs/results/starts/place_nobase_failed_train.json}
test -s $bank || { echo "finetune.sh: $bank missing; record it first (record.sh, record.sh h2)" >&2; exit 2; }
for s in "$@"; do
  stage ${NAME:-place_nobase_failbank}${share}_s$s $s skill.start_bank=$bank skill.start_bank_prob=$share &
done
wait
