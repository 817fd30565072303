#!/bin/bash
# The same stage a third time, from s132 (the shipped place; stage2.sh), seed 134: do the gains go on?
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
O="skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]"
run place_held3_s134 run.init_from=runs/dev/place_held2_s132/checkpoints/latest.pt run.seed=134 $O
