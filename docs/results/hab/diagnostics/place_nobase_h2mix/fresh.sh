#!/bin/bash
# fresh.sh SHARE SEED...: s139's recipe (`place_from_base/fresh.sh`'s first two stages, 3.53M steps) from scratch
# with SHARE of the episodes drawn from 3200 training-layout episodes started by Habitat 2.0's per-skill spawn
# (`place_nobase_failbank/record.sh h2big`), the rest from the recipe's own starts (within 1.0 m); one chain per
# seed, side by side (runs/dev/place_nobase_h2mixSHARE_sSEED*). Resumes when rerun.
BANK=docs/results/starts/place_nobase_h2big_train.json
test -s $BANK || { echo "fresh.sh: $BANK missing; run place_nobase_failbank/record.sh h2big" >&2; exit 2; }
NAME=place_nobase_h2mix$1 GENTLE=0 EXTRA="skill.start_bank=$BANK skill.start_bank_prob=$1" \
  exec $(dirname $0)/../place_from_base/fresh.sh "${@:2}"
