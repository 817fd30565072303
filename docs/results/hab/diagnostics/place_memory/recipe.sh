# Sourced by stage.sh, stage2.sh and control.sh (set SEQ, the LSTM's training sequence length, first): s103's
# last stage's recipe (place_gamma/stage.sh: 1.5M steps at HAB's 2 x 2 updates of 1e-4 decayed from the
# start, the shut rule, the banks at 0.5, the goal mix) and run NAME OVERRIDES..., which trains runs/dev/NAME
# unless it exists.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
S=docs/results/runs/place_w256_shut_goals_s103/place.pt
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=$SEQ skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 ppo.target_kl=0.03 run.total_steps=1500000 run.wandb=disabled run.progress=false skill.goal_receptacles=$G"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
