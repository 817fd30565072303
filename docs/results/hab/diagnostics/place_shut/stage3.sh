#!/bin/bash
# The shut rule with a sensor of the push. stage.sh's and stage2.sh's places shove the drawer shut as
# often as the shipped place (22 of 100 drawer goals against 19): what they carry meets the drawer where
# nothing they observe changes. Here the place also reads goal_receptacle_shift (new, not HAB's: the share
# of its opening by which the goal's door or drawer has been pushed toward closed since the start; its
# input weights start at 0, `skills.warmstart --add-sensor`), under the shut rule with stage2.sh's goals,
# 2.0M steps:
#   s104: from the shipped place (128 units), s84's larger updates (4 x 4 at 2.5e-4, held for half the run);
#   s105: from s101 (256 units: 85.4% of the 800), HAB's 2 x 2 at 1e-4 decayed from the start.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
S101=runs/dev/place_w256_shut_s101/checkpoints/latest.pt
[ -e runs/dev/place_shift.pt ] || python -m skills.warmstart skills/checkpoints/place.pt runs/dev/place_shift.pt --add-sensor goal_receptacle_shift
[ -e runs/dev/place_w256_shift.pt ] || python -m skills.warmstart $S101 runs/dev/place_w256_shift.pt --add-sensor goal_receptacle_shift
G="[kitchen_counter,kitchen_cabinet,dining_table,coffee_table,sofa,tv_stand,shelf,side_table,bookshelf,fridge,drawer_0,fridge,drawer_0,shelf,fridge,drawer_0,shelf]"
C="skill=place policy=cpu ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.shift_sensor=true skill.goal_receptacles=$G skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.target_kl=0.03 run.total_steps=2000000 run.wandb=disabled run.progress=false"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_shift_s104 ppo.lr_decay_start=0.5 ppo.epochs=4 ppo.num_minibatches=4 ppo.lr=2.5e-4 run.init_from=runs/dev/place_shift.pt run.seed=104 &
run place_w256_shift_s105 policy.hidden_size=256 ppo.lr_decay_start=0 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 run.init_from=runs/dev/place_w256_shift.pt run.seed=105 &
wait
