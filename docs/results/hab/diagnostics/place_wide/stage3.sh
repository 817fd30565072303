#!/bin/bash
# From s94 (the shipped place widened to 256 units, 2.0M steps of s66's recipe: 85.5% of the 800), two
# more 2.0M-step stages, HAB's 2 x 2 updates at 1e-4 decayed by a cosine from the start:
#   s98: s94's recipe again (its training success still rose at the end: 0.72);
#   s99: with the arm contact sensor added (`--add-sensor arm_contact_force`, s96's: 85.6% at 128 units)
#        and the banks of states along the scripted place (place_along/, s92's: 84.9%) beside s66's, at 0.6.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
S94=runs/dev/place_w256_s94/checkpoints/latest.pt
[ -e runs/dev/place_w256_s94_contact.pt ] || python -m skills.warmstart $S94 runs/dev/place_w256_s94_contact.pt --add-sensor arm_contact_force
C="skill=place policy=cpu policy.hidden_size=256 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.target_kl=0.03 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 run.total_steps=2000000 run.wandb=disabled run.progress=false"
OLD="$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json"
ALONG="$B/place_along_scripted_train.json,$B/place_along_scripted_hard_train.json"
run() { name=$1; shift; [ -e runs/dev/$name ] || python -m skills.train $C "$@" run.dir=runs/dev/$name > logs/$name.log 2>&1; }
run place_w256_more_s98 skill.start_bank="'$OLD'" skill.start_bank_prob=0.5 run.init_from=$S94 run.seed=98 &
run place_w256_contact_along_s99 skill.contact=true skill.start_bank="'$ALONG,$OLD'" skill.start_bank_prob=0.6 run.init_from=runs/dev/place_w256_s94_contact.pt run.seed=99 &
wait
