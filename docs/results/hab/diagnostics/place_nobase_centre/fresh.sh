#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe from scratch (`place_from_base/fresh.sh`, its first two
# stages: 2.53M steps at a constant rate, 1.0M decayed to 0; HAB's place rule) with the object held as
# habitat-lab's grasp holds it, by its centre on the gripper (`skill.grasp=centre`; docs/simulator.md);
# runs/dev/place_nobase_centre_sSEED and _ft, one chain per seed, side by side (sixty-first session: 166 167).
NAME=place_nobase_centre GENTLE=0 EXTRA="skill.grasp=centre" exec $(dirname $0)/../place_from_base/fresh.sh "$@"
