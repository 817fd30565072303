#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe from scratch (`place_from_base/fresh.sh`, its first two
# stages: 2.53M steps at a constant rate, 1.0M decayed to 0) paid for where the object comes to rest, not
# only where it is let go (neither is HAB's reward): an object let go within goal_tol that comes to rest
# outside it ends the episode with the drop penalty and the place reward taken back (`skill.settled_away`,
# with `skill.settle_speed=0.05`), and the object->goal reward keeps counting down to 0.10 m from the goal
# (`skill.place_margin=0.05`); runs/dev/place_nobase_rest_sSEED and _ft, one chain per seed, side by side.
NAME=place_nobase_rest GENTLE=0 \
  RULE="skill.release_speed=0 skill.settle_speed=0.05 skill.settled_away=true skill.place_margin=0.05" \
  exec $(dirname $0)/../place_from_base/fresh.sh "$@"
