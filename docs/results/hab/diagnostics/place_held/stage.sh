#!/bin/bash
# s103 reading the goal from the held object's centre (`held_goal_sensor`, as HAB's grasp, which snaps the
# object's centre onto the end effector, makes obj_goal_sensor read), then s103's own last stage (the
# control's recipe, place_memory/control.sh), seeds 128 and 129 side by side.
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
H=runs/dev/s103_held.pt
[ -e $H ] || python -m skills.warmstart $S $H --rename-sensor obj_goal_sensor:held_goal_sensor
O="skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]"
run place_held_s128 run.init_from=$H run.seed=128 $O &
run place_held_s129 run.init_from=$H run.seed=129 $O &
wait
