#!/bin/bash
# fresh.sh VARIANT SEED...: s139's recipe (`place_from_base/fresh.sh`'s first two stages, 3.53M steps) with
# another learner, one chain per seed, side by side (runs/dev/place_nobase_VARIANT_sSEED*). VARIANT:
#   envs32   32 envs per rollout in 4 minibatches (the same minibatch size, twice the experience per update)
#   wide256  an LSTM and MLP of 256 units (128 in the recipe)
#   epochs4  4 passes over each rollout (2 in the recipe, as HAB's)
#   lowstd   actions drawn with a std of 0.37 at the start (policy.init_log_std=-1.0; the recipe starts at 1.0 and
#            ends near 0.9)
# Resumes when rerun.
case $1 in
  envs32) EXTRA="engine.num_envs=32 ppo.num_minibatches=4" ;;
  wide256) EXTRA="policy.hidden_size=256 policy.mlp_hidden=256" ;;
  epochs4) EXTRA="ppo.epochs=4" ;;
  lowstd) EXTRA="policy.init_log_std=-1.0" ;;
  *) echo "fresh.sh: VARIANT $1 not known; use envs32, wide256, epochs4 or lowstd" >&2; exit 2 ;;
esac
NAME=place_nobase_$1 GENTLE=0 EXTRA=$EXTRA exec $(dirname $0)/../place_from_base/fresh.sh "${@:2}"
