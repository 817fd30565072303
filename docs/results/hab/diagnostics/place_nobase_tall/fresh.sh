#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe from scratch (`place_from_base/fresh.sh`, its first
# two stages: 2.53M steps at a constant rate, 1.0M decayed to 0) with each tall object (cracker box,
# mustard bottle, sugar box) drawn three times as often as the others in both stages (`skill.object_types`:
# 9 of 20 entries); runs/dev/place_nobase_tallmix_sSEED and _ft, one chain per seed, side by side.
source $(dirname $0)/mix.sh
NAME=place_nobase_tallmix GENTLE=0 EXTRA="$TALL_MIX" \
  exec docs/results/hab/diagnostics/place_from_base/fresh.sh "$@"
