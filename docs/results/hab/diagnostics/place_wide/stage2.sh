#!/bin/bash
# s94's recipe (stage.sh: the shipped place widened to 256 units, HAB's 2 x 2 updates at 1e-4) with
# another seed (97): s94 placed 85.5% of the 800 (33 / 23 against the shipped place, p 0.23).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.target_kl=0.03 run.total_steps=2000000 run.wandb=disabled run.progress=false run.init_from=runs/dev/place_w256.pt"
name=place_w256_s97
[ -e runs/dev/$name ] || python -m skills.train $C ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 run.seed=97 run.dir=runs/dev/$name > logs/$name.log 2>&1
