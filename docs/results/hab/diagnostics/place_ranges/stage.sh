#!/bin/bash
# The planar lidar for the place (`skill.ranges`, 24 distances to walls and furniture around the base at two
# heights: not HAB's, which sees head depth). Untried for the place; for the pick the lidar fridge fine-tune
# got into the fridge in 63 of 100 episodes against 40 without (thirty-third session), and the place loses
# most on the fridge (25 of its ~100 failures on the 800) and on long detours. s103 gains the sensor with
# input weights 0 (`skills.warmstart --add-sensor base_ranges`: it acts as s103 until trained), then s103's
# own last stage's recipe (the control, place_memory/control.sh: 85.88% of the 800 twice) with the lidar on,
# seeds 122 and 123 side by side; then each on the 800 by HAB's rules.
SEQ=32
source docs/results/hab/diagnostics/place_memory/recipe.sh
R=runs/dev/s103_ranges.pt
[ -s $R ] || python -m skills.warmstart $S $R --add-sensor base_ranges
lidar() {
  name=$1
  run "$@" run.init_from=$R skill.ranges=true
  EVAL_DIR=docs/results/hab/diagnostics/place_ranges docs/results/hab/diagnostics/place_updates/evaluate.sh $name
}
lidar place_ranges_s122 run.seed=122 &
lidar place_ranges_s123 run.seed=123 &
wait
