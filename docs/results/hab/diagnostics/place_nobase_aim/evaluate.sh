#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_from_base/evaluate.sh` against the shipped no-base place (s139,
# skills/checkpoints/place_nobase.pt) on the same episodes, writing its JSONs into this folder (or $D:
# `place_nobase_rest/evaluate.sh` and `place_nobase_long/evaluate.sh` write into theirs).
#   used, not chosen on:  evaluate.sh 40e6 40000000,41000000,42000000,43000000 NAME
#   never used before:    evaluate.sh 56e6 56000000,57000000,58000000,59000000 NAME
#   Habitat 2.0's spawn:  SPAWN=habitat2 evaluate.sh h2_48e6 48000000,49000000,50000000,51000000 NAME
D=${D:-$(dirname $0)} AGAINST=skills/checkpoints/place_nobase.pt exec $(dirname $0)/../place_from_base/evaluate.sh "$@"
