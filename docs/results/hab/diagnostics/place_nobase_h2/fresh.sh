#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe (`place_from_base/fresh.sh`'s first two stages: 2.53M
# steps at a constant rate, then 1.0M decayed to 0, by HAB's place rule, reading held_goal_sensor) from
# scratch, with its starts drawn by Habitat 2.0's per-skill spawn (`skill.spawn_rule=habitat2`: the free
# cell nearest the goal, or in front of the fridge or open drawer that holds it) instead of within 1.0 m;
# side by side. Writes runs/dev/place_nobase_h2_sSEED and _sSEED_ft; resumes when rerun.
NAME=place_nobase_h2 GENTLE=0 EXTRA="skill.spawn_rule=habitat2" exec docs/results/hab/diagnostics/place_from_base/fresh.sh "$@"
