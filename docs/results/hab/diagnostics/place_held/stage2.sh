#!/bin/bash
# The same stage again (the control's recipe, place_memory/recipe.sh, with held_goal_sensor) from s128 and
# from s129 (stage.sh), seeds 132 and 133 side by side: does a second stage gain where the first spent its
# first 0.3M steps learning the new sensor?
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
O="skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]"
run place_held2_s132 run.init_from=runs/dev/place_held_s128/checkpoints/latest.pt run.seed=132 $O &
run place_held2_s133 run.init_from=runs/dev/place_held_s129/checkpoints/latest.pt run.seed=133 $O &
wait
