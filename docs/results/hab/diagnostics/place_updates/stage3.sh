#!/bin/bash
# Head depth with updates that move the policy. s73 (place_depth/stage6.sh: from s61, 16x16 head depth,
# HAB's place rule with the clearance kept, the weak-receptacle, detour, nav-stop and chain banks at 0.5,
# drawn by episode: 12, 8, 21 and 9% of the episodes; 4.0M steps at 1e-4 decayed) stayed at 0.67-0.71
# training success and placed 81.4% of the 800; its updates moved the policy by a KL of about 0.001. The
# same stage from s61 with 4 x 4 minibatch steps at 2.5e-4 (KL about 0.015 in stage.sh's s84), held for
# half the run, then decayed to 0; 3.0M steps, seed 87 (stopped at 1.74M in the forty-seventh session:
# training success 0.60 -> 0.53-0.59).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
[ -e runs/dev/place_d16_upd4x4_s87 ] || python -m skills.train skill=place policy=cpu ppo.epochs=4 ppo.num_minibatches=4 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=peak skill.release_speed=0 skill.settle_speed=0 \
  skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 \
  "skill.start_bank='$B/place_hard_receptacles_train.json,$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" \
  skill.start_bank_prob=0.5 ppo.lr=2.5e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 ppo.target_kl=0.03 \
  run.total_steps=3000000 run.wandb=disabled run.progress=false run.init_from=runs/dev/place_hardrec_d16_s61 run.seed=87 \
  run.dir=runs/dev/place_d16_upd4x4_s87 > logs/place_d16_upd4x4_s87.log 2>&1
