#!/bin/bash
# The shipped s51's own recipe (NoNav's first-pick bank x2 + the fridge bank at 0.5: ~29% NoNav starts), 3M
# steps more from s51 with its input statistics held and clipped at 30 instead of 10 (seed 81): nonav_clip.sh's
# s80 at s51's smaller share, from the pick with the better own task. Then the 800 and NoNav seeds 30-34.
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
B=docs/results/starts
N=$B/pick_nonav_first_train.json
name=pd_s51_clip30_s81
python -m skills.train $PICK_STAGE ppo.obs_stats_until=500000 policy.obs_clip=30 \
  run.init_from=docs/results/runs/pick_depth_nonav_s51/pick.pt run.total_steps=3000000 \
  "skill.start_bank='$N,$N,$B/pick_fridge_train.json'" skill.start_bank_prob=0.5 run.seed=81 \
  run.dir=runs/dev/$name > logs/$name.log 2>&1
eight_hundred $name
nonav pick_depth_$name runs/dev/$name 30 31 32 33 34
