#!/bin/bash
# run.sh SEED: can the shipped pick (s83, 90.3% of its 2200) pick more of its own task without losing NoNav? A bank
# of the training-layout episodes s83 fails (4000 episodes from seed 7000000, drawn as its own task draws them;
# skills.starts --failures-of; ~6 min), then 1.2M steps from s83 at 1e-4 decayed to 0 with its own settings, the
# failure bank twice beside NoNav's first-pick bank twice and the fridge bank once at 0.45 (about 18 / 18 / 9% of
# the episodes as listed; s83's stage listed 34% NoNav, 11% fridge), run seed SEED, into runs/dev/pick_s83_fail_sSEED
# (~11 min on 2 cores). Then the 2200 against s83 (~17 min) and NoNav's single-attempt first pick on seeds 70-79,
# unused so far, for both (arm_speed/nonav.sh; ~7 min each). The sixty-ninth session ran `run.sh 84` up to the end
# of its stage (the bank: 351 of 4000 failed, force 124, wrong grasp 37, timeout 190) and the evaluations with
# evaluate.sh, which reuses s83's outcomes on the 2200.
seed=$1
source .venv/bin/activate
export MUJOCO_GL=egl
S=docs/results/starts
D=docs/results/hab/diagnostics/pick_s83_fail
P=docs/results/runs/pick_depth_back_s83/pick.pt
f=runs/dev/pick_s83_failed_train.json
test -f $f || python -m skills.starts --task pick --set near_furniture_prob=0.5 --set spawn_clearance=0.32 \
  --split train --episodes 4000 --seed 7000000 --failures-of $P --out $f
name=pick_s83_fail_s$seed
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=pick run.seed=$seed ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 \
  run.init_from=$P run.total_steps=1200000 run.wandb=disabled run.progress=false run.dir=$d \
  skill.force_measure=peak skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000 skill.detour_reward=true \
  skill.start_bank_prob=0.45 "skill.start_bank='$f,$f,$S/pick_nonav_first_train.json,$S/pick_nonav_first_train.json,$S/pick_fridge_train.json'" \
  $r >> logs/$name.log 2>&1
[ -s $D/${name}_2200.json ] || python -m skills.evaluate $d --episodes 200 \
  --seed 1000000,2000000,3000000,4000000,5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
  --against $P --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/${name}_2200.json
N=docs/results/hab/diagnostics/arm_speed/nonav.sh
SEEDS="70 71 72 73 74 75 76 77 78 79" bash $N runs/eval69/nonav70 s83 capped checkpoints=pick:$P
SEEDS="70 71 72 73 74 75 76 77 78 79" bash $N runs/eval69/nonav70 $name capped checkpoints=pick:$d/checkpoints/latest.pt
python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval69/nonav70 s83 $name > $D/${name}_nonav70.txt
