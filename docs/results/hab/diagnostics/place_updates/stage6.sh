#!/bin/bash
# The shipped lineage's two later stages after s89 (stage5.sh), as Makefile's `lstm_gentle` and
# `lstm_clear` followed `lstm`: 1.0M steps under the gentle-place rule with a release away costing 2.0
# (seed 90), then 1.0M more with the clearance rule (skill.clear_dist=0.25, seed 91); 1e-4 decayed to 0
# in each. s89's depth, detour reward and three banks kept.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1000000 run.wandb=disabled run.progress=false"
[ -e runs/dev/place_reroot_gentle_s90 ] || python -m skills.train $C run.init_from=runs/dev/place_reroot_d16_s89 run.seed=90 \
  run.dir=runs/dev/place_reroot_gentle_s90 > logs/place_reroot_gentle_s90.log 2>&1
[ -e runs/dev/place_reroot_clear_s91 ] || python -m skills.train $C skill.clear_dist=0.25 run.init_from=runs/dev/place_reroot_gentle_s90 \
  run.seed=91 run.dir=runs/dev/place_reroot_clear_s91 > logs/place_reroot_clear_s91.log 2>&1
