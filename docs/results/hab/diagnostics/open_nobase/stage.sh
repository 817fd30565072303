#!/bin/bash
# stage.sh SKILL FROM NAME SEED [OVERRIDES...]: one more stage of train.sh's settings (3.0M steps, the rate held
# for half, then decayed to 0 by a cosine) from runs/dev/FROM's weights into runs/dev/NAME, with OVERRIDES
# (say skill.slack_penalty=0.005: not HAB's, which gives open/close no slack penalty). Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
skill=$1 from=$2 name=$3 seed=$4; shift 4
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=$skill skill.base_movement=false skill.spawn_rule=habitat2 skill.force_measure=peak \
  ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 run.total_steps=3000000 run.wandb=disabled run.progress=false \
  "policy.init_action_mean=[0,0,0,0,0,0,0,0,-2.0]" run.seed=$seed run.init_from=runs/dev/$from/checkpoints/latest.pt \
  run.dir=$d "$@" $r >> logs/$name.log 2>&1
