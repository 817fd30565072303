#!/bin/bash
# evaluate.sh NAME: runs/dev/NAME (run.sh's stage) alone on the pick's 2200 held-out episodes (~9 min), paired
# with s83's outcomes there by pair.py, beside NoNav's single-attempt first pick on seeds 70-79 for s83 and NAME
# (arm_speed/nonav.sh; ~7 min each).
name=$1
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/pick_s83_fail
P=docs/results/runs/pick_depth_back_s83/pick.pt
N=docs/results/hab/diagnostics/arm_speed/nonav.sh
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
( pick_2200 $name $D/${name}_2200.json
  python $D/pair.py $D/${name}_2200.json > $D/${name}_2200.txt ) &
( SEEDS="70 71 72 73 74 75 76 77 78 79" bash $N runs/eval69/nonav70 s83 capped checkpoints=pick:$P
  SEEDS="70 71 72 73 74 75 76 77 78 79" bash $N runs/eval69/nonav70 $name capped checkpoints=pick:runs/dev/$name/checkpoints/latest.pt
  python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval69/nonav70 s83 $name > $D/${name}_nonav70.txt ) &
wait
