#!/bin/bash
# Place's first with-base stage again, seeing depth and paid along the way round. Every place stage since
# the twenty-second session starts from the shipped lineage, whose first with-base stage (Makefile
# `lstm`: the no-base LSTM place with base outputs added, 2.5M steps under HAB's place rule, the nav-stop
# and chain banks at 0.5, 3e-4 decayed, seed 3; 78.0% of validation's 200, 80.0% of the table's) learned
# to drive under HAB's reward, paid for the object's straight-line approach to the goal: going round a
# wall first costs reward. Fine-tunes from there with the detour reward or the detour bank left the
# detoured starts where they were (place_depth/). Here that stage from the same start point with 16x16
# head depth added (skills.warmstart --add-depth 16), the detour reward (skill.detour_reward) and the
# detour bank beside the two (10, 28 and 12% of the episodes), seed 89.
source .venv/bin/activate
export MUJOCO_GL=egl
B=docs/results/starts
nb=runs/dev/place_nobase_ft.pt ws=runs/dev/place_nb_base.pt w=runs/dev/place_nb_base_d16.pt
# the no-base place the lineage started from (shipped in commit 639cf4e, before its gentle stage)
[ -f $nb ] || git show 639cf4e:skills/checkpoints/place_nobase.pt > $nb
[ -f $ws ] || python -m skills.warmstart --add-base --base-log-std -1.5 $nb $ws
[ -f $w ] || python -m skills.warmstart --add-depth 16 $ws $w
[ -e runs/dev/place_reroot_d16_s89 ] || python -m skills.train skill=place policy=cpu ppo.epochs=2 ppo.num_minibatches=2 \
  ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.release_speed=0 skill.settle_speed=0 skill.depth=16 \
  policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true \
  "skill.start_bank='$B/place_detour_train.json,$B/place_nav_train.json,$B/place_chain_train.json'" skill.start_bank_prob=0.5 \
  ppo.lr_schedule=cosine run.total_steps=2500000 run.wandb=disabled run.progress=false run.init_from=$w run.seed=89 \
  run.dir=runs/dev/place_reroot_d16_s89 > logs/place_reroot_d16_s89.log 2>&1
