#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_from_base/evaluate.sh` against the shipped no-base place (s139) on
# the same episodes, writing its JSONs into this folder; with SPAWN=habitat2 both start where Habitat 2.0's
# per-skill tasks start the robot (name the SUFFIX so, say h2_48e6).
#   never used before:  evaluate.sh 48e6 48000000,49000000,50000000,51000000 NAME
#                       SPAWN=habitat2 evaluate.sh h2_48e6 48000000,49000000,50000000,51000000 NAME
D=docs/results/hab/diagnostics/place_nobase_h2 AGAINST=skills/checkpoints/place_nobase.pt \
  exec docs/results/hab/diagnostics/place_from_base/evaluate.sh "$@"
