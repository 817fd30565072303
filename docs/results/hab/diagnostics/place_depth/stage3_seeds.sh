#!/bin/bash
# s66's recipe (stage3.sh without the detour reward) with two more seeds (69, 70), from the shipped place:
# is its 86.1% of the 800 the recipe or the draw?
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json' skill.start_bank_prob=0.5 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false run.init_from=skills/checkpoints/place.pt"
for s in 69 70; do
  python -m skills.train $C run.seed=$s run.dir=runs/dev/place_detourbank_s$s > logs/place_detourbank_s$s.log 2>&1 &
done
wait
docs/results/hab/diagnostics/place_depth/evaluate2.sh place_detourbank_s69 place_detourbank_s70
