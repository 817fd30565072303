#!/bin/bash
# run.sh SEED: can the shipped pick (s83, 90.3% of its 2200) pick more of its own task without losing NoNav? A
# bank of the training-layout episodes s83 fails (4000 from seed 7000000, drawn as its own task draws them;
# skills.starts --failures-of; ~6 min; kept as docs/results/starts/pick_s83_failed_train.json), then 1.2M
# steps from s83 with the depth pick's stage settings (pick_fridge_depth/nonav_single.sh's fail_stage, through
# pick_stage as s83 was trained), the input statistics held, the failure bank twice beside NoNav's first-pick
# bank twice and the fridge bank once at 0.45 (about 18 / 18 / 9% of the episodes; s83's: 34% NoNav, 11%
# fridge), run seed SEED, into runs/dev/pick_s83_fail_sSEED (~11 min on 2 cores; resumes when rerun); then
# evaluate.sh. The sixty-ninth session: run.sh 84 (the bank: 351 of 4000 failed, force 124, wrong grasp 37,
# timeout 190).
seed=$1
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
D=docs/results/hab/diagnostics/pick_s83_fail
P=docs/results/runs/pick_depth_back_s83/pick.pt
name=pick_s83_fail_s$seed
fail_stage $name $P $STARTS/pick_s83_failed_train.json 7000000 $seed
bash $D/evaluate.sh $name
