#!/bin/bash
# Place from states along the scripted place's episodes (a reverse curriculum from demonstrations). The
# scripted place places 96.5% of the 800 where the learned one places 84.25%, and the learned one's
# straight-way failures gather at the drawer, fridge and shelf. Two banks of states mid-way along the
# scripted place's successful training episodes (`python -m skills.starts --task place --along
# scripted:place`: all receptacles, and the drawer, fridge, shelf and bookshelf) beside s66's banks
# (detour, nav stops, chains), drawn with probability 0.6 (shares by size); otherwise the shipped place's
# last stage (HAB's 2 x 2 updates at 1e-4, decayed by a cosine from the start); 2.0M steps from the shipped place; seeds 92 and 93.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
BANKS="$B/place_along_scripted_train.json,$B/place_along_scripted_hard_train.json,$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json"
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank='$BANKS' skill.start_bank_prob=0.6 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=2000000 run.wandb=disabled run.progress=false run.init_from=skills/checkpoints/place.pt"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_along_s92 run.seed=92 &
run place_along_s93 run.seed=93 &
wait
