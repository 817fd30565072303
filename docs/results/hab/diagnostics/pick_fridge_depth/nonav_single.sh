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

# The depth pick's stage settings (16x16 depth, the detour reward, 1e-4 decayed to 0; the stages from s49 on)
# and its own-task check: `eight_hundred RUN` writes RUN_800.json beside this file (runs/dev/RUN on the pick
# table's 800 held-out episodes by HAB's peak force rule, --against the shipped pick), keeping one there.
PICK_STAGE="skill=pick skill.depth=16 policy.image_encoder=flat skill.detour_reward=true ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.wandb=disabled run.progress=false"
eight_hundred() { out=docs/results/hab/diagnostics/pick_fridge_depth/${1}_800.json
  [ -s $out ] || python -m skills.evaluate runs/dev/$1 --episodes 200 --seed 1000000,2000000,3000000,4000000 \
    --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $out; }

# The start banks the NoNav stages draw from, and one stage: `pick_stage NAME FROM STEPS BANKS PROB SEED
# [OVERRIDE...]` trains the depth pick (PICK_STAGE, then the OVERRIDEs) from FROM for STEPS env steps with
# BANKS (comma-separated) at PROB, into runs/dev/NAME (log: logs/NAME.log).
STARTS=docs/results/starts
NONAV_BANK=$STARTS/pick_nonav_first_train.json
FRIDGE_BANK=$STARTS/pick_fridge_train.json
pick_stage() { local name=$1 from=$2 steps=$3 banks=$4 prob=$5 seed=$6; shift 6
  python -m skills.train $PICK_STAGE "$@" run.init_from=$from run.total_steps=$steps "skill.start_bank='$banks'" \
    skill.start_bank_prob=$prob run.seed=$seed run.dir=runs/dev/$name > logs/$name.log 2>&1; }

# The failure-bank stage (the shipped pick s84's): `fail_stage NAME FROM BANK BANK_SEED SEED [OVERRIDE...]`
# draws BANK if it is missing (the training-layout pick episodes FROM fails among 4000 from BANK_SEED, drawn
# as the pick's own task draws them; skills.starts --failures-of), then trains pick_stage from FROM for 1.2M
# steps with BANK twice beside NONAV_BANK twice and FRIDGE_BANK once at 0.45, HAB's peak force rule, the input
# statistics held, resuming runs/dev/NAME if it has a checkpoint.
fail_stage() { local name=$1 from=$2 bank=$3 bank_seed=$4 seed=$5; shift 5
  test -f $bank || python -m skills.starts --task pick --set near_furniture_prob=0.5 --set spawn_clearance=0.32 \
    --split train --episodes 4000 --seed $bank_seed --failures-of $from --out $bank
  pick_stage $name $from 1200000 "$bank,$bank,$NONAV_BANK,$NONAV_BANK,$FRIDGE_BANK" 0.45 $seed \
    skill.force_measure=peak ppo.obs_stats_until=500000 \
    $(test -f runs/dev/$name/checkpoints/latest.pt && echo run.resume=true) "$@"; }

# `pick_2200 RUN OUT`: the pick runs/dev/RUN alone on all 2200 of the pick's held-out episodes (the table's 200
# and eleven more sets) by HAB's peak force rule, the JSON line into OUT (kept if OUT is already there; ~9 min).
pick_2200() { [ -s $2 ] || python -m skills.evaluate runs/dev/$1 --episodes 200 \
    --seed 1000000,2000000,3000000,4000000,5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
    --set force_measure=peak --json 2>/dev/null | tail -n1 > $2; }
