#!/bin/bash
# Fiftieth session: s112, nobase.sh's start (the shipped no-base place widened to 256 units) with its last
# stage's recipe alone (no shut rule, every goal receptacle once), 1.0M steps, seed 112: is it the width
# or the goal mix and shut rule that s111 unlearned by? Then the 800 by HAB's place rule against the
# shipped no-base place (nobase2_800.json here).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_books
W=runs/dev/place_nobase_w256.pt
[ -e $W ] || python -m skills.warmstart skills/checkpoints/place_nobase.pt $W --widen 256
name=place_nobase_w256_s112
[ -e runs/dev/$name ] || python -m skills.train skill=place skill.base_movement=false skill.spawn_max_dist=1.0 policy=cpu \
  policy.hidden_size=256 ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 \
  skill.force_measure=sum skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
  run.total_steps=1000000 run.seed=112 run.init_from=$W run.wandb=disabled run.progress=false \
  run.dir=runs/dev/$name > logs/$name.log 2>&1
out=$D/nobase2_800.json
[ -s $out ] || python -m skills.evaluate runs/dev/$name --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --against skills/checkpoints/place_nobase.pt --set release_speed=0 --set settle_speed=0 --json 2>/dev/null | tail -n1 > $out
