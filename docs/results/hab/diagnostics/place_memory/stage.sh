#!/bin/bash
# Fifty-second session, from s103 (the shipped place), its last stage's recipe (recipe.sh) with the LSTM's
# gradient reaching back over a whole rollout (128 steps, the engine's default and habitat-baselines' way)
# instead of 32, since s103 fails 68% of the starts whose way to the goal detours >= 1 m and going round
# takes longer than 32 steps to pay off:
#   s117: 128-step sequences;
#   s118: 128-step sequences and the goal path compass (nav's sensor, not HAB's; added at zero weight by
#         `skills.warmstart --add-sensor goal_path_compass`).
# The two side by side, one per core.
SEQ=128
source docs/results/hab/diagnostics/place_memory/recipe.sh
P=runs/dev/place_s103_path.pt
[ -f $P ] || python -m skills.warmstart --add-sensor goal_path_compass $S $P
run place_seq128_s117 run.init_from=$S run.seed=117 &
run place_seq128_path_s118 run.init_from=$P skill.path_compass=true run.seed=118 &
wait
