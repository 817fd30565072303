#!/bin/bash
# finetune_pick_place.sh: the with-base pick and place fine-tuned under the fast arm (the sixty-eighth session), each
# with its shipped file's own settings and start banks (docs/results/starts/): pick 1.0M steps (pick_seed.sh,
# runs/dev/fast_pick_ft, ~13 min on 2 cores, then its evaluation and NoNav's first pick); place 1.0M
# (runs/dev/fast_place_ft, ~11 min), then 1.5M more from there (runs/dev/fast_place_ft2, ~25 min), both at 1e-4
# decayed to 0 by a cosine. Resumes when rerun. Then e.g.
#   python -m skills.ship runs/dev/fast_place_ft2 --dir docs/results/runs/place_fastarm_ft
#   python -m skills.evaluate docs/results/runs/place_fastarm_ft/place.pt --episodes 200 --json | tail -1 > finetuned_place.json
D=docs/results/hab/diagnostics/arm_speed
S=docs/results/starts
GOALS="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
PLACE=(skill.arm_control=ee skill.force_measure=sum skill.grip_init_mean=2.0 policy=cpu policy.hidden_size=256
  ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 ppo.target_kl=0.03 skill.clear_dist=0.25
  skill.drop_penalty=2.0 skill.start_bank_prob=0.5 skill.shut_tol=0.25 "skill.goal_receptacles=$GOALS"
  "skill.observations=[held_goal_sensor,joint,is_holding,relative_resting_position]"
  "skill.start_bank='$S/place_detour_train.json,$S/place_nav_train.json,$S/place_chain_train.json'")
bash $D/pick_seed.sh fast 68 fast_pick_ft finetuned_pick.json
bash $D/finetune.sh place fast_place_ft 68 1000000 "${PLACE[@]}"
d=runs/dev/fast_place_ft2
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
source .venv/bin/activate
export MUJOCO_GL=egl
python -m skills.train skill=place skill.arm_speed=fast run.seed=682 ppo.lr=1e-4 ppo.lr_schedule=cosine \
  ppo.lr_decay_start=0.0 run.init_from=runs/dev/fast_place_ft/checkpoints/latest.pt run.total_steps=1500000 \
  run.wandb=disabled run.progress=false run.dir=$d "${PLACE[@]}" $r >> logs/fast_place_ft2.log 2>&1
