#!/bin/bash
# s66 (stage3.sh's control: the detour bank beside the nav-stop and chain banks, no detour reward) placed
# 86.1% of the 800 against the shipped place's 84.25% and 86.75% of two fresh sets: its stage once more
# from it, 1.2M steps, 1e-4 decayed to 0: the same banks (seed 67) or the detour bank listed twice
# (seed 68: a quarter of the episodes detoured).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank_prob=0.5 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false run.init_from=runs/dev/place_detourbank_s66/checkpoints/latest.pt"
python -m skills.train $C skill.start_bank="'$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" run.seed=67 run.dir=runs/dev/place_detourbank2_s67 > logs/place_detourbank2_s67.log 2>&1 &
python -m skills.train $C skill.start_bank="'$B/place_detour_train.json,$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" run.seed=68 run.dir=runs/dev/place_detourbank2x_s68 > logs/place_detourbank2x_s68.log 2>&1 &
wait
