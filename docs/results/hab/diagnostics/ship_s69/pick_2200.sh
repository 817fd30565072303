#!/bin/bash
# pick_2200.sh NEW OLD OUT: the pick NEW against OLD on the pick table's other ten sets of 200 held-out episodes
# (2e6-4e6 with the table's 1e6 make the 800; 5e6, 6e6, 8e6-12e6 the 1400 more; 2200 with the table's 200) by
# HAB's peak force rule, as the shipped s78 was measured (pick_fridge_depth/confirm_held.sh); one JSON line
# into OUT. The sixty-ninth session (s69 shipped then): pick_2200.sh docs/results/runs/pick_capped_ft_s69/pick.pt
#   docs/results/runs/pick_depth_held_s78/pick.pt s69_ten_sets.json
source .venv/bin/activate
export MUJOCO_GL=egl
python -m skills.evaluate $1 --episodes 200 \
  --seed 2000000,3000000,4000000,5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
  --against $2 --set force_measure=peak --json 2>/dev/null | tail -n1 > $3
