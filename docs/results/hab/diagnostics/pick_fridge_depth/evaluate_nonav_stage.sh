#!/bin/bash
# After nonav_stage.sh: s50, s51 and s49 (shipped) in NoNav with one attempt per call on seeds 0-4 (the
# choice set of nonav_1000/), then s50 and s51 against s49 on the 800 and the fridge episodes.
source .venv/bin/activate
D=docs/results/hab/diagnostics/pick_fridge_depth
nonav() { name=$1; pt=$2; shift 2
  for k in "$@"; do
    d=runs/nonav_single/$name/seed$k
    [ -f $d/summary.json ] || tpsrl-eval scenario=tidy_house agent=tp_srl_nonav episodes=100 seed=$k processes=1 chain.max_replans=0 \
      chain.sample_retries=false chain.reapproach_retries=false checkpoints=pick:$pt out_dir=$d.tmp progress=false > /dev/null 2>&1 \
      && mkdir -p $d && mv $d.tmp/*/* $d/ && rm -rf $d.tmp
  done; }
( nonav pick_depth_nonav_s50 runs/dev/pd_s49_nonav_s50 0 1 2 3 4; nonav pick_depth_fridge_s49 skills/checkpoints/pick.pt 0 1 ) &
( nonav pick_depth_nonav2_s51 runs/dev/pd_s49_nonav2_s51 0 1 2 3 4; nonav pick_depth_fridge_s49 skills/checkpoints/pick.pt 2 3 4 ) &
wait
for r in pd_s49_nonav_s50 pd_s49_nonav2_s51; do
  ( python -m skills.evaluate runs/dev/$r --episodes 200 --seed 1000000,2000000,3000000,4000000 --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_800.json
    python -m skills.evaluate runs/dev/$r --episodes 100 --seed 7000000 --set "receptacles=('fridge',)" --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${r}_fridge7000000.json ) &
done; wait
