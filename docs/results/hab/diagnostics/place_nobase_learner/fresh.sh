#!/bin/bash
# fresh.sh SEED_BATCH SEED_WIDE: s139's recipe (`place_from_base/fresh.sh`'s first two stages, 3.53M steps)
# with a larger learner, one chain each, side by side: 32 envs per rollout in 4 minibatches (the same
# minibatch size, twice the experience per update; runs/dev/place_nobase_envs32_sSEED*) and an LSTM and MLP
# of 256 units (runs/dev/place_nobase_wide256_sSEED*). Resumes when rerun.
F=$(dirname $0)/../place_from_base/fresh.sh
NAME=place_nobase_envs32 GENTLE=0 EXTRA="engine.num_envs=32 ppo.num_minibatches=4" bash $F $1 &
NAME=place_nobase_wide256 GENTLE=0 EXTRA="policy.hidden_size=256 policy.mlp_hidden=256" bash $F $2 &
wait
