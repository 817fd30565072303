#!/bin/bash
# nonav.sh OUT LABEL SPEED [OVERRIDES...]: emergent navigation under an arm speed: tp_srl_nonav's first pick on Tidy
# House with one attempt per call (chain.max_replans=0, no sampled or re-approached retries, as README's NoNav
# figure), the episode ended after that call (chain.max_skill_calls=1: the first stage is decided by then), 100
# held-out episodes for each of seeds 40-49 (README's; SEEDS="..." to choose), under chain.arm_speed=SPEED with
# tpsrl-eval OVERRIDES (e.g. checkpoints=pick:...), into OUT/LABEL/seedN; then `nonav.py OUT A B` compares two
# labels episode by episode (SCENARIO=prepare_groceries: that scenario's first pick instead). The sixty-eighth
# session (15 min each on 2 cores):
#   nonav.sh runs/eval68/nonav capped capped; nonav.sh runs/eval68/nonav fast fast
#   nonav.sh runs/eval68/nonav fast_pick_ft fast checkpoints=pick:docs/results/runs/pick_fastarm_ft/pick.pt
source .venv/bin/activate
export MUJOCO_GL=egl
out=$1 label=$2 speed=$3; shift 3
for seed in ${SEEDS:-40 41 42 43 44 45 46 47 48 49}; do
  test -d $out/$label/seed$seed && continue
  tpsrl-eval scenario=${SCENARIO:-tidy_house} agent=tp_srl_nonav episodes=100 seed=$seed processes=2 progress=false \
    out_dir=$out/$label/seed$seed.tmp chain.max_replans=0 chain.sample_retries=false chain.reapproach_retries=false \
    chain.max_skill_calls=1 chain.arm_speed=$speed "$@" > /dev/null && mv $out/$label/seed$seed.tmp/* $out/$label/seed$seed \
    && rmdir $out/$label/seed$seed.tmp
done
