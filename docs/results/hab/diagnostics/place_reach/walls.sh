#!/bin/bash
# The starts no learned place has solved: a wall between the base and the goal (29 of the 800, placed 0 by
# every learned place, 20 by the scripted one, which has the map; reach.txt). s103 given nav's path compass
# (`skills.warmstart --add-sensor goal_path_compass`: direction and distance along the shortest way over
# the free floor, zero input weights at first), then s103's own last stage's recipe with the wall bank
# (wall_bank.py: 289 such starts of 20,000 training episodes) listed 7 times among its banks (a third of the
# bank's draws, about a sixth of all episodes), seed 124; then on the 800 by HAB's rules.
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
P=runs/dev/s103_path.pt
[ -s $P ] || python -m skills.warmstart $S $P --add-sensor goal_path_compass
W=$B/place_wall_train.json
C=${C/place_chain_train.json\'/place_chain_train.json,$W,$W,$W,$W,$W,$W,$W\'}
run place_walls_path_s124 run.init_from=$P skill.path_compass=true run.seed=124
EVAL_DIR=docs/results/hab/diagnostics/place_reach docs/results/hab/diagnostics/place_updates/evaluate.sh place_walls_path_s124
