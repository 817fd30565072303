#!/bin/bash
# From s45 (fridge-heavy), a decay stage with fewer bank starts, to keep the fridge and recover the rest.
source .venv/bin/activate
B=docs/results/starts
FF="'$B/pick_fridge_train.json,$B/pick_failed2_train.json'"
C="run.init_from=docs/results/runs/pick_depth_fridge_s45/pick.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false skill.start_bank=$FF"
python -m skills.train skill=pick $C skill.start_bank_prob=0.3 run.seed=46 run.dir=runs/dev/pd_s45_decay03_s46 > logs/pd_s45_decay03_s46.log 2>&1 &
python -m skills.train skill=pick $C skill.start_bank_prob=0.15 run.seed=47 run.dir=runs/dev/pd_s45_decay015_s47 > logs/pd_s45_decay015_s47.log 2>&1 &
wait
D=docs/results/hab/diagnostics/pick_fridge_depth
ev() { out=$D/$1; shift; [ -s $out ] || python -m skills.evaluate "$@" --set force_measure=peak --json 2>/dev/null | tail -n1 > $out; }
( ev pd_s45_decay03_s46_fridge7000000.json runs/dev/pd_s45_decay03_s46 --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev pd_s45_decay03_s46_seed11000000.json runs/dev/pd_s45_decay03_s46 --episodes 200 --seed 11000000 ) &
( ev pd_s45_decay015_s47_fridge7000000.json runs/dev/pd_s45_decay015_s47 --episodes 100 --seed 7000000 --set "receptacles=('fridge',)"
  ev pd_s45_decay015_s47_seed11000000.json runs/dev/pd_s45_decay015_s47 --episodes 200 --seed 11000000
  ev shipped_seed11000000.json skills/checkpoints/pick.pt --episodes 200 --seed 11000000 ) &
wait
