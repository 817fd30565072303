#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_from_base/evaluate.sh` against the shipped no-base place (s139,
# skills/checkpoints/place_nobase.pt) on the same episodes, writing its JSONs into this folder.
#   used, not chosen on:  evaluate.sh 40e6 40000000,41000000,42000000,43000000 NAME
D=docs/results/hab/diagnostics/place_nobase_margin AGAINST=skills/checkpoints/place_nobase.pt \
  exec docs/results/hab/diagnostics/place_from_base/evaluate.sh "$@"
