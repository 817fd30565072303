#!/bin/bash
# s103 (kept: docs/results/runs/place_w256_shut_goals_s103/) as tp_srl's place in the three HAB scenarios,
# 100 held-out episodes each (the study's episodes; the other skills the shipped ones); logs beside this.
D=docs/results/hab/diagnostics/place_shut
source .venv/bin/activate
export MUJOCO_GL=egl
P=docs/results/runs/place_w256_shut_goals_s103/place.pt
chain() { [ -s $D/chain_s103_$1.log ] || tpsrl-eval scenario=$1 agent=tp_srl episodes=100 processes=1 checkpoints=place:$P > $D/chain_s103_$1.log 2>&1; }
( chain tidy_house; chain set_table ) &
chain prepare_groceries &
wait
