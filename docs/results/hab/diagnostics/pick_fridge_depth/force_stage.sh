#!/bin/bash
# From s47, a stage aimed at the fridge's force failures: the fridge bank at 0.3, with a force end penalty
# five times HAB's (seed 48) or HAB's as is (seed 49, the control); 1.2M steps, 1e-4 decayed to 0.
source .venv/bin/activate
B=docs/results/starts
C="run.init_from=docs/results/runs/pick_depth_fridge_decay_s47/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false skill.start_bank=$B/pick_fridge_train.json skill.start_bank_prob=0.3"
python -m skills.train skill=pick $C skill.force_end_penalty=5.0 run.seed=48 run.dir=runs/dev/pd_s47_fridge_end5_s48 > logs/pd_s47_fridge_end5_s48.log 2>&1 &
python -m skills.train skill=pick $C run.seed=49 run.dir=runs/dev/pd_s47_fridge_s49 > logs/pd_s47_fridge_s49.log 2>&1 &
wait
D=docs/results/hab/diagnostics/pick_fridge_depth
ev() { out=$D/$1; shift; [ -s $out ] || python -m skills.evaluate "$@" --set force_measure=peak --json 2>/dev/null | tail -n1 > $out; }
( ev pd_s47_fridge_end5_s48_fridge7000000.json runs/dev/pd_s47_fridge_end5_s48 --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev pd_s47_fridge_end5_s48_seed12000000.json runs/dev/pd_s47_fridge_end5_s48 --episodes 200 --seed 12000000 ) &
( ev pd_s47_fridge_s49_fridge7000000.json runs/dev/pd_s47_fridge_s49 --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev pd_s47_fridge_s49_seed12000000.json runs/dev/pd_s47_fridge_s49 --episodes 200 --seed 12000000
  ev shipped_seed12000000.json skills/checkpoints/pick.pt --episodes 200 --seed 12000000
  ev pd_s45_decay015_s47_seed12000000.json docs/results/runs/pick_depth_fridge_decay_s47/pick.pt --episodes 200 --seed 12000000 ) &
wait
