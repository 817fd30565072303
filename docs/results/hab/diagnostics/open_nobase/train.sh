#!/bin/bash
# train.sh SKILL SEED [STEPS]: SKILL (open_drawer or open_fridge) without base movement, from scratch, started
# by Habitat 2.0's open/close spawn (`skill.spawn_rule=habitat2`: 0.86-0.89 m in front of the drawer's handle,
# 1.0-1.08 m in front of the fridge's), the skill's preset otherwise (HAB's rewards and force rule; the drawer
# preset's release reward), STEPS (3.0M) with the rate held for half and then decayed to 0 by a cosine, the
# stop output's initial mean at -2 (training only, as `skill.grip_init_mean` for the grip: a fresh policy
# calls stop with p = 0.5 a step, and both runs that started at 0 ended every episode within 2 steps for
# 25k steps, never finding the handle). Into runs/dev/SKILL_nobase_h2_sSEED; resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
skill=$1 seed=$2 steps=${3:-3000000}
case $skill in open_drawer|open_fridge) ;; *) echo "train.sh: $skill: give open_drawer or open_fridge" >&2; exit 2 ;; esac
d=runs/dev/${skill}_nobase_h2_s$seed
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=$skill skill.base_movement=false skill.spawn_rule=habitat2 skill.force_measure=peak \
  "policy.init_action_mean=[0,0,0,0,0,0,0,0,-2.0]" ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 \
  run.total_steps=$steps run.seed=$seed run.wandb=disabled run.progress=false run.dir=$d $r >> logs/${skill}_nobase_h2_s$seed.log 2>&1
