#!/bin/bash
# The shut rule (`skill.shut_tol=0.25`, new, not HAB's): a place whose goal is in the fridge or a drawer
# ends (cause "shut", the drop penalty) once the held object, the arm or the base has pushed that door or
# drawer a quarter of its opening toward closed. s66's recipe (the shipped place's last stage with the
# detour bank beside the nav-stop and chain banks at 0.5, HAB's 2 x 2 updates at 1e-4, cosine from the
# start) with the rule, 2.0M steps each:
#   s100: from the shipped place (128 units);
#   s101: from s94 (the shipped place widened to 256 units, then 2.0M of s66's recipe: 85.5% of the 800).
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.shut_tol=0.25 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.target_kl=0.03 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 run.total_steps=2000000 run.wandb=disabled run.progress=false"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_shut_s100 run.init_from=skills/checkpoints/place.pt run.seed=100 &
run place_w256_shut_s101 policy.hidden_size=256 run.init_from=runs/dev/place_w256_s94/checkpoints/latest.pt run.seed=101 &
wait
