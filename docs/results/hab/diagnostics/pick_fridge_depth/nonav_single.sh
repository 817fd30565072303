# Sourced by the scripts beside it: `nonav NAME POLICY SEED...` runs NoNav with one attempt per call (Tidy
# House, 100 episodes per seed, the pick POLICY in place of the shipped one) into
# runs/nonav_single/NAME/seed<k>/, skipping seeds already there.
nonav() { name=$1; pt=$2; shift 2
  for k in "$@"; do
    d=runs/nonav_single/$name/seed$k
    [ -f $d/summary.json ] && continue
    tpsrl-eval scenario=tidy_house agent=tp_srl_nonav episodes=100 seed=$k processes=1 chain.max_replans=0 \
      chain.sample_retries=false chain.reapproach_retries=false checkpoints=pick:$pt out_dir=$d.tmp progress=false > /dev/null 2>&1 \
      && mkdir -p $d && mv $d.tmp/*/* $d/ && rm -rf $d.tmp
  done; }
