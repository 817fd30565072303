#!/bin/bash
# chain_starts.sh: s84 against s83 from the pick calls of tp_srl chains on held-out layouts
# (docs/results/starts/pick_chain_heldout.json: 485 calls recorded in the sixteenth session, 30 episodes x 3
# scenarios, first calls and retries; evaluation only), by HAB's peak force rule, paired (chain_starts.txt).
source .venv/bin/activate
export MUJOCO_GL=egl
python -m skills.evaluate docs/results/runs/pick_s83_fail_s84/pick.pt \
  --start-bank docs/results/starts/pick_chain_heldout.json --episodes 485 \
  --against docs/results/runs/pick_depth_back_s83/pick.pt --set force_measure=peak \
  > docs/results/hab/diagnostics/ship_s70/chain_starts.txt 2>&1
