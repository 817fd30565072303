#!/bin/bash
# finetune.sh SHIPPED NAME SEED STEPS [OVERRIDES...]: the shipped skill SHIPPED (skills/checkpoints/SHIPPED.pt)
# fine-tuned under the fast arm (skill.arm_speed=fast), as the shipped close_fridge was fine-tuned (1e-4, decayed to 0 by
# a cosine), from its weights, with its skill's preset (SHIPPED less _nobase) and OVERRIDES (a no-base skill's
# settings: the Makefile's), into runs/dev/NAME; resumes when rerun. The sixty-seventh session: finetune.sh close_fridge fast_cf_ft 67 1000000 (14 min), then
#   python -m skills.evaluate runs/dev/fast_cf_ft --episodes 200 --json | tail -1 > finetuned_close_fridge.json
# (weights of each fine-tune: docs/results/runs/SHIPPED_fastarm_ft/); open_drawer and open_fridge so (fast_open_*_ft); the no-base
# pick and place with their Makefile settings (NOBASE PICK16; NOBASE_HELD):
#   finetune.sh pick_nobase fast_pick_nobase_ft 67 1000000 skill.base_movement=false skill.spawn_max_dist=1.0 engine.num_envs=16
#   finetune.sh place_nobase fast_place_nobase_ft 67 1000000 skill.base_movement=false skill.spawn_max_dist=1.0 \
#     skill.release_speed=0 skill.settle_speed=0 policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 \
#     skill.grip_init_mean=2.0 skill.force_measure=peak "skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]"
shipped=$1 name=$2 seed=$3 steps=$4; shift 4
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
source .venv/bin/activate
export MUJOCO_GL=egl
python -m skills.train skill=${shipped%_nobase} skill.arm_speed=fast run.seed=$seed ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 \
  run.init_from=skills/checkpoints/$shipped.pt run.total_steps=$steps run.wandb=disabled run.progress=false run.dir=$d "$@" $r \
  >> logs/$name.log 2>&1
