#!/bin/bash
# Fiftieth session, from s103 (the place shipped since this session; place_shut/stage2.sh), 1.5M steps at
# HAB's 2 x 2 updates of 1e-4 decayed from the start, the shut rule, the banks at 0.5:
#   s108: the bookshelf too listed three times among the goals;
#   s109: s103's goals, 32 envs per rollout (twice the data per update, as the shipped pick's preset).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
BOOKS="${G%]},bookshelf,bookshelf]"
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 ppo.target_kl=0.03 run.total_steps=1500000 run.wandb=disabled run.progress=false"
# run NAME GOALS OVERRIDES...
run() { name=$1; goals=$2; shift 2; [ -e runs/dev/$name ] || python -m skills.train $C skill.goal_receptacles=$goals "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_w256_shut_books_s108 $BOOKS run.init_from=docs/results/runs/place_w256_shut_goals_s103/place.pt run.seed=108
run place_w256_shut_envs32_s109 $G engine.num_envs=32 run.init_from=docs/results/runs/place_w256_shut_goals_s103/place.pt run.seed=109
# s110: s103 widened to 512 units per layer (the paper's skills' width; `skills.warmstart --widen 512`),
# then s103's recipe, 1.5M steps.
W=runs/dev/place_s103_w512.pt
[ -e $W ] || python -m skills.warmstart docs/results/runs/place_w256_shut_goals_s103/place.pt $W --widen 512
run place_w512_shut_goals_s110 $G policy.hidden_size=512 run.init_from=$W run.seed=110
