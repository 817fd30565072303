#!/bin/bash
# Larger PPO updates for place. Every place fine-tune since the twenty-second session (1e-4 decayed, HAB's
# 2 epochs x 2 minibatches) moved its policy by an approximate KL of at most 0.0015-0.0017 per update
# (means over tenths of a run; clip fraction under 0.01; the shipped lineage's own first with-base stage
# at 3e-4: 0.004-0.006), and each ended within noise of where it started. The best of them, s66's recipe
# (the shipped place's last stage with the detour bank beside the nav-stop and chain banks at 0.5, drawn
# by episode: 10, 28 and 12% of the episodes; three seeds 86.1, 82.75, 83.4% of the 800), here with
# updates that move the policy more: 4 epochs x 4 minibatches at 2.5e-4 (seed 84), or HAB's 2 x 2 at
# 1e-3 (seed 85; stopped at 0.6M steps in the forty-seventh session, its training success falling); the
# rate held for half the run, then decayed to 0 by a cosine; 2.0M steps; epochs end early past 1.5 x
# ppo.target_kl. From the shipped place.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0.5 ppo.target_kl=0.03 run.total_steps=2000000 run.wandb=disabled run.progress=false run.init_from=skills/checkpoints/place.pt"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_upd4x4_s84 ppo.epochs=4 ppo.num_minibatches=4 ppo.lr=2.5e-4 run.seed=84 &
run place_lr1e3_s85 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-3 run.seed=85 &
wait
