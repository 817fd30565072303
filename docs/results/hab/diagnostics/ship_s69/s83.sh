#!/bin/bash
# s83.sh: s83 (docs/results/runs/pick_depth_back_s83: s78 + 1.2M steps with NoNav's bank at a smaller share,
# forty-sixth session, not shipped then: 90.3% of 2200, NoNav seeds 50-59 62.7%) against the shipped s69 where
# neither was chosen: its own task on all 2200 (--against s69; ~17 min on 2 cores) and NoNav's single-attempt
# first pick on seeds 60-69, unused so far, for both (arm_speed/nonav.sh; ~7 min each).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/ship_s69
P=docs/results/runs/pick_depth_back_s83/pick.pt
[ -s $D/s83_2200.json ] || python -m skills.evaluate $P --episodes 200 \
  --seed 1000000,2000000,3000000,4000000,5000000,6000000,8000000,9000000,10000000,11000000,12000000 \
  --against skills/checkpoints/pick.pt --set force_measure=peak --json 2>/dev/null | tail -n1 > $D/s83_2200.json
N=docs/results/hab/diagnostics/arm_speed/nonav.sh
SEEDS="60 61 62 63 64 65 66 67 68 69" bash $N runs/eval69/nonav60 shipped_s69 capped
SEEDS="60 61 62 63 64 65 66 67 68 69" bash $N runs/eval69/nonav60 s83 capped checkpoints=pick:$P
python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval69/nonav60 shipped_s69 s83 > $D/s83_nonav60.txt
# Then s78 (shipped before both) on the same seeds, the sixty-ninth session's last run (s78_nonav60.txt):
SEEDS="60 61 62 63 64 65 66 67 68 69" bash $N runs/eval69/nonav60 s78 capped checkpoints=pick:docs/results/runs/pick_depth_held_s78/pick.pt
python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval69/nonav60 s78 s83 > $D/s78_nonav60.txt
