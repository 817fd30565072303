#!/bin/bash
# train.sh SKILL SEED [STEPS]: SKILL (open_drawer or open_fridge) without base movement, from scratch, started
# by Habitat 2.0's open/close spawn (`skill.spawn_rule=habitat2`: 0.86-0.89 m in front of the drawer's handle,
# 1.0-1.08 m in front of the fridge's), the skill's preset otherwise (HAB's rewards and force rule; the drawer
# preset's release reward). Two stages of STEPS (3.0M) each, the rate held for half of each and then decayed
# to 0 by a cosine: runs/dev/SKILL_nobase_h2_sSEED from scratch with the stop output's initial mean at -2
# (training only, as `skill.grip_init_mean` for the grip: a fresh policy calls stop with p = 0.5 a step,
# and both runs started at 0 ended every episode within 2 steps for 25k steps, never finding the handle),
# then runs/dev/SKILL_nobase_h2_sSEED_2 from its weights (seed SEED + 1000). Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
skill=$1 seed=$2 steps=${3:-3000000}
case $skill in open_drawer|open_fridge) ;; *) echo "train.sh: $skill: give open_drawer or open_fridge" >&2; exit 2 ;; esac
C="skill=$skill skill.base_movement=false skill.spawn_rule=habitat2 skill.force_measure=peak ppo.lr_schedule=cosine \
  ppo.lr_decay_start=0.5 run.total_steps=$steps run.wandb=disabled run.progress=false \
  policy.init_action_mean=[0,0,0,0,0,0,0,0,-2.0]"
d=runs/dev/${skill}_nobase_h2_s$seed
stage() {  # stage DIR OVERRIDES...
  r=$(test -f $1/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train $C run.dir=$1 "${@:2}" $r >> logs/$(basename $1).log 2>&1
}
stage $d run.seed=$seed || exit 1
stage ${d}_2 run.seed=$((seed + 1000)) run.init_from=$d/checkpoints/latest.pt
