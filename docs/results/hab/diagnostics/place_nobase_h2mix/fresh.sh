#!/bin/bash
# fresh.sh SHARE SEED...: s139's recipe (`place_from_base/fresh.sh`'s first two stages, 3.53M steps) from scratch
# with SHARE of the episodes drawn from 3200 training-layout episodes started by Habitat 2.0's per-skill spawn
# (`place_nobase_failbank/record.sh h2big`), the rest from the recipe's own starts (within 1.0 m); one chain per
# seed, side by side (runs/dev/place_nobase_h2mixSHARE_sSEED*). Resumes when rerun. SHUT (a share) trains
# under the shut rule as `hard.sh` does, and draws the bank episodes from `hard.sh`'s two banks, which give
# the drawer, fridge, shelf and kitchen counter more often (runs/dev/place_nobase_h2mixSHARE_shutSHUT_sSEED*).
big=docs/results/starts/place_nobase_h2big_train.json
hard=docs/results/starts/place_nobase_h2hard_train.json
bank=$big${SHUT:+,$hard}
for f in ${bank//,/ }; do
  test -s $f || { echo "fresh.sh: $f missing; run place_nobase_failbank/record.sh h2big (and h2hard)" >&2; exit 2; }
done
NAME=place_nobase_h2mix$1${SHUT:+_shut$SHUT} GENTLE=0 \
  EXTRA="skill.start_bank='$bank' skill.start_bank_prob=$1 ${SHUT:+skill.shut_tol=$SHUT}" \
  exec $(dirname $0)/../place_from_base/fresh.sh "${@:2}"
