#!/bin/bash
# s83 in the HAB chains (100 held-out episodes per scenario, seed 0): tp_srl_nonav and tp_srl, two at a time,
# into runs/hab_s83/.
source .venv/bin/activate
export MUJOCO_GL=egl
for s in tidy_house prepare_groceries set_table; do
  for a in tp_srl_nonav tp_srl; do
    tpsrl-eval scenario=$s agent=$a episodes=100 processes=1 checkpoints=pick:docs/results/runs/pick_depth_back_s83/pick.pt \
      out_dir=runs/hab_s83 progress=false > /dev/null 2>&1 &
  done
  wait
done
