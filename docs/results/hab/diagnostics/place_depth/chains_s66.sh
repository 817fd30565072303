#!/bin/bash
# s66 (the detour bank, no reward) against the shipped place on two fresh sets (14e6, 15e6; 400 episodes,
# HAB's rules), and in the chains (tp_srl, 100 held-out episodes per scenario, processes=1).
D=docs/results/hab/diagnostics/place_depth
source .venv/bin/activate
export MUJOCO_GL=egl
P=runs/dev/place_detourbank_s66/checkpoints/latest.pt
HAB="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set force_measure=peak"
chain() { tpsrl-eval scenario=$1 agent=tp_srl episodes=100 processes=1 checkpoints=place:$P > logs/chain_s66_$1.log 2>&1; }
( [ -s $D/detourbank_s66_fresh400.json ] || python -m skills.evaluate $P --episodes 200 --seed 14000000,15000000 --against skills/checkpoints/place.pt $HAB --json 2>/dev/null | tail -n1 > $D/detourbank_s66_fresh400.json
  chain prepare_groceries ) &
( chain tidy_house; chain set_table ) &
wait
