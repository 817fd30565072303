#!/bin/bash
# hard.sh SHARE SEED...: the shipped no-base place (s139) fine-tuned 1.0M steps at 1e-4 decayed to 0 by a cosine
# under the rule it was trained on (`place_nobase_tall/finetune.sh`) with SHARE of its episodes from Habitat 2.0's
# per-skill spawn: 3200 episodes of every goal (`place_nobase_failbank/record.sh h2big`) beside 1600 whose
# goals are the ones s139 places least from that spawn (the drawer listed twice, the fridge, shelf and
# kitchen counter; `place_nobase_failbank/record.sh h2hard`), so that about a fifth of those episodes' goals
# are in the drawer. One run per seed, side by side (runs/dev/place_nobase_h2hardSHARE_sSEED);
# resumes when rerun. SHUT (a share) trains under the shut rule too (`skill.shut_tol`, not HAB's: an episode
# ends once the goal's drawer or fridge door is pushed that share of its opening toward closed; s139 from that
# spawn lets go over the drawer's goal after pushing the drawer shut in 22 of its 24 drawer failures), into
# runs/dev/place_nobase_h2hardSHARE_shutSHUT_sSEED.
STEPS=1000000
source $(dirname $0)/../place_nobase_tall/finetune.sh
big=docs/results/starts/place_nobase_h2big_train.json
hard=docs/results/starts/place_nobase_h2hard_train.json
for f in $big $hard; do
  test -s $f || { echo "hard.sh: $f missing; run place_nobase_failbank/record.sh h2big and h2hard" >&2; exit 2; }
done
share=$1; shift
for s in "$@"; do
  stage place_nobase_h2hard${share}${SHUT:+_shut$SHUT}_s$s $s "skill.start_bank='$big,$hard'" skill.start_bank_prob=$share \
    ${SHUT:+skill.shut_tol=$SHUT} &
done
wait
