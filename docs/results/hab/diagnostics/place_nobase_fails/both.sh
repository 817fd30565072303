#!/bin/bash
# both.sh SEED...: `place_from_base/fresh.sh` (the shipped no-base place's recipe: 2,533,376 steps under
# HAB's place rule at a constant rate, 1.0M decayed to 0 by a cosine, then 1.0M under the gentle rule;
# stage seeds SEED, SEED+1000, SEED+2000) reading obj_goal_sensor (the goal from the gripper) beside
# held_goal_sensor (from the held object's centre): the two differ by how far below the cup the object's
# centre hangs, so the policy can tell a tall object from a short one. Runs runs/dev/place_nobase_both_sSEED*.
# Resumes when rerun.
OBS="[held_goal_sensor,obj_goal_sensor,joint,is_holding,relative_resting_position]" NAME=place_nobase_both \
  exec docs/results/hab/diagnostics/place_from_base/fresh.sh "$@"
