#!/bin/bash
# The control for every stage run from s103: its own last stage's recipe, unchanged (32-step sequences), run
# once more from s103 with seeds 120 and 121, side by side, then each on the 800 by HAB's rules. Every lever
# tried from s103 (fifty-first and fifty-second sessions) placed 83.0-85.4% of the 800 against its 87.25%.
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
# again NAME OVERRIDES...: train, then evaluate on the 800
again() {
  name=$1
  run "$@" run.init_from=$S
  EVAL_DIR=docs/results/hab/diagnostics/place_memory docs/results/hab/diagnostics/place_updates/evaluate.sh $name
}
again place_again_s120 run.seed=120 &
again place_again_s121 run.seed=121 &
wait
