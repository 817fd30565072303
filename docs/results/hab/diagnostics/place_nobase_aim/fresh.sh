#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe from scratch (`place_from_base/fresh.sh`, its first two
# stages: 2.53M steps at a constant rate, 1.0M decayed to 0) reading held_top as well from the first step
# (which way the held object leans and how tall it is); runs/dev/place_nobase_top_fresh_sSEED and _ft, one
# chain per seed, side by side.
NAME=place_nobase_top_fresh GENTLE=0 EXTRA="skill.top_sensor=true" \
  OBS="[held_goal_sensor,joint,is_holding,relative_resting_position,held_top]" \
  exec $(dirname $0)/../place_from_base/fresh.sh "$@"
