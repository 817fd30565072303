#!/bin/bash
# s117's stage (stage.sh: s103's last stage's recipe with 128-step LSTM sequences) with a second seed, 119.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
S=docs/results/runs/place_w256_shut_goals_s103/place.pt
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=128 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 ppo.target_kl=0.03 run.total_steps=1500000 run.wandb=disabled run.progress=false skill.goal_receptacles=$G"
name=place_seq128_s119
[ -e runs/dev/$name ] || python -m skills.train $C run.init_from=$S run.seed=119 run.dir=runs/dev/$name > logs/$name.log 2>&1
EVAL_DIR=docs/results/hab/diagnostics/place_memory docs/results/hab/diagnostics/place_updates/evaluate.sh $name
