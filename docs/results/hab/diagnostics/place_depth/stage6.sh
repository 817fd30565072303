#!/bin/bash
# A long stage: every 1.2M-step place fine-tune so far (s61-s72) ended within noise of the shipped place.
# From s61 (16x16 head depth, HAB's place rule in training, 84.75% of the 800), 4M steps more under the
# same rule with the weak-receptacle and detour banks beside the nav-stop and chain banks at 0.5 (a
# bank's episodes are drawn alike: 12, 8, 21 and 9% of the episodes, half HAB's spawns), 1e-4 decayed to 0, seed 73.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
python -m skills.train skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 \
  skill.grip_init_mean=2.0 skill.force_measure=peak skill.release_speed=0 skill.settle_speed=0 skill.clear_dist=0.25 \
  skill.drop_penalty=2.0 skill.depth=16 policy.image_encoder=flat \
  "skill.start_bank='$B/place_hard_receptacles_train.json,$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" \
  skill.start_bank_prob=0.5 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=4000000 \
  run.wandb=disabled run.progress=false run.init_from=runs/dev/place_hardrec_d16_s61 run.seed=73 \
  run.dir=runs/dev/place_long_d16_s73 > logs/place_long_d16_s73.log 2>&1
