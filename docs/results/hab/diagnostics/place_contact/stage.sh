#!/bin/bash
# Place that feels its arm press. The shipped place's failures at the fridge, shelf, counter, TV stand and
# cabinet accumulate a median 3-10 kN of new force on the arm (its successes 0; scene_force/forces.py):
# it presses on furniture for the rest of the episode, and a state-only policy cannot feel that. Unlike
# pick's brief brushes (twenty-sixth session) the pressing lasts, so an LSTM that reads
# `arm_contact_force` (log(1 + the arm's contact force)) can notice it. `python -m skills.warmstart
# skills/checkpoints/place.pt runs/dev/place_contact.pt --add-sensor arm_contact_force` (acts as the
# shipped place until trained), then s66's recipe (place_wide/stage.sh's, 128 units, HAB's 2 x 2 at
# 1e-4) with `skill.contact=true`, 2.0M steps, seed 96.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
[ -e runs/dev/place_contact.pt ] || python -m skills.warmstart skills/checkpoints/place.pt runs/dev/place_contact.pt --add-sensor arm_contact_force
C="skill=place policy=cpu ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.contact=true skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr_schedule=cosine ppo.lr_decay_start=0 ppo.target_kl=0.03 ppo.epochs=2 ppo.num_minibatches=2 ppo.lr=1e-4 run.total_steps=2000000 run.wandb=disabled run.progress=false run.init_from=runs/dev/place_contact.pt"
name=${1:-place_contact_s96}; seed=${2:-96}
[ -e runs/dev/$name ] || python -m skills.train $C run.seed=$seed run.dir=runs/dev/$name > logs/$name.log 2>&1
