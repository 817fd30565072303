#!/bin/bash
# The control for every stage run from s103: its own last stage's recipe, unchanged (32-step sequences), run
# once more from s103 with seeds 120 and 121, side by side, then each on the 800 by HAB's rules. Every lever
# tried from s103 (fifty-first and fifty-second sessions) placed 83.0-85.4% of the 800 against its 87.25%.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
S=docs/results/runs/place_w256_shut_goals_s103/place.pt
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 ppo.target_kl=0.03 run.total_steps=1500000 run.wandb=disabled run.progress=false skill.goal_receptacles=$G run.init_from=$S"
# run NAME OVERRIDES...: train, then evaluate on the 800
run() {
  name=$1; shift
  [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1
  EVAL_DIR=docs/results/hab/diagnostics/place_memory docs/results/hab/diagnostics/place_updates/evaluate.sh $name
}
run place_again_s120 run.seed=120 &
run place_again_s121 run.seed=121 &
wait
