#!/bin/bash
# s51 (chosen on NoNav seeds 0-4 and the 800) confirmed where no choice was made: NoNav with one attempt on
# seeds 10-19, the own task's six other sets and the twelfth against s49 (shipped), and the HAB chains.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
R=runs/dev/pd_s49_nonav2_s51
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
a() { nonav pick_depth_nonav2_s51 $R 10 11 12 13 14 15 16 17 18 19
      for s in tidy_house prepare_groceries set_table; do
        tpsrl-eval scenario=$s agent=tp_srl_nonav episodes=100 processes=1 checkpoints=pick:$R out_dir=runs/hab_s51 progress=false > /dev/null 2>&1
      done; }
b() { python -m skills.evaluate $R --episodes 200 --seed 5000000,6000000,8000000,9000000,10000000,11000000,12000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/pd_s49_nonav2_s51_seven_more_sets.json
      for s in tidy_house prepare_groceries set_table; do
        tpsrl-eval scenario=$s agent=tp_srl episodes=100 processes=1 checkpoints=pick:$R out_dir=runs/hab_s51 progress=false > /dev/null 2>&1
      done; }
a & b & wait
