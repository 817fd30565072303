#!/bin/bash
# s78 in the HAB chains (100 held-out episodes per scenario, seed 0, as the rows of the HAB table): tp_srl and
# tp_srl_nonav with the agent's retries, into runs/hab_s78/. (The last, Set Table with tp_srl, was started by
# hand with the same command beside Prepare Groceries, this script stopped before it.)
source .venv/bin/activate
export MUJOCO_GL=egl
for a in tp_srl_nonav tp_srl; do
  for s in tidy_house prepare_groceries set_table; do
    tpsrl-eval scenario=$s agent=$a episodes=100 processes=1 checkpoints=pick:runs/dev/pd_s53_frozen_s78 \
      out_dir=runs/hab_s78 progress=false > /dev/null 2>&1
  done
done
