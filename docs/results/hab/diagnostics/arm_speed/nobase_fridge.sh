#!/bin/bash
# nobase_fridge.sh NAME SEED [STEPS]: the no-base open fridge at HAB's 200 steps under the fast arm (skill.arm_speed),
# from the weights of the fridge trained at 400 steps with today's arm
# (docs/results/runs/open_fridge_nobase_long400/: at the target by step ~350 there), the open stages' settings
# otherwise (train.sh in ../open_nobase: Habitat 2.0's spawn, the peak force rule, the stop output's initial mean
# -2, the rate held for half the run and then decayed), STEPS (3.0M) into runs/dev/NAME; resumes when rerun.
# The sixty-seventh session: nobase_fridge.sh fast_of_nb 67 (24 min), then
#   python -m skills.evaluate runs/dev/fast_of_nb --episodes 200 --json | tail -1 > nobase_open_fridge_fast.json
#   python ../open_nobase/trace_long.py open_fridge runs/dev/fast_of_nb/checkpoints/latest.pt 6 200
# and the source's trace under the fast arm: trace_long.py ... open_fridge_nobase_long400/open_fridge_nobase.pt 6 400 fast.
name=$1 seed=$2 steps=${3:-3000000}
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
source .venv/bin/activate
export MUJOCO_GL=egl
python -m skills.train skill=open_fridge skill.arm_speed=fast skill.base_movement=false skill.spawn_rule=habitat2 \
  skill.force_measure=peak ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 run.total_steps=$steps run.wandb=disabled \
  run.progress=false "policy.init_action_mean=[0,0,0,0,0,0,0,0,-2.0]" run.seed=$seed \
  run.init_from=docs/results/runs/open_fridge_nobase_long400/open_fridge_nobase.pt run.dir=$d $r >> logs/$name.log 2>&1
