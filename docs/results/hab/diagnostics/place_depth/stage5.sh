#!/bin/bash
# The place that sees the way: the goal path compass (nav's sensor: distance and direction along the
# shortest path over the free floor to the goal) added to the shipped place (`skills.warmstart
# --add-sensor goal_path_compass`, zero weights at first), then the shipped place's last stage with the
# detour bank beside its two (seed 71) or its two alone (seed 72); 1.2M steps, 1e-4 decayed to 0.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
[ -f runs/dev/place_path_start.pt ] || python -m skills.warmstart --add-sensor goal_path_compass skills/checkpoints/place.pt runs/dev/place_path_start.pt
C="skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum skill.clear_dist=0.25 skill.drop_penalty=2.0 skill.start_bank_prob=0.5 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.wandb=disabled run.progress=false run.init_from=runs/dev/place_path_start.pt skill.path_compass=true ppo.obs_stats_until=500000"
python -m skills.train $C skill.start_bank="'$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" run.seed=71 run.dir=runs/dev/place_path_detourbank_s71 > logs/place_path_detourbank_s71.log 2>&1 &
python -m skills.train $C skill.start_bank="'$B/place_nav_train.json,$B/place_chain_train.json'" run.seed=72 run.dir=runs/dev/place_path_s72 > logs/place_path_s72.log 2>&1 &
wait
docs/results/hab/diagnostics/place_depth/evaluate2.sh place_path_detourbank_s71 place_path_s72
