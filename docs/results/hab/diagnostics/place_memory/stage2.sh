#!/bin/bash
# s117's stage (stage.sh: s103's last stage's recipe with 128-step LSTM sequences) with a second seed, 119.
SEQ=128
source docs/results/hab/diagnostics/place_memory/recipe.sh
run place_seq128_s119 run.init_from=$S run.seed=119
EVAL_DIR=docs/results/hab/diagnostics/place_memory docs/results/hab/diagnostics/place_updates/evaluate.sh place_seq128_s119
