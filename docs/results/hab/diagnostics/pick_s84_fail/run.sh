#!/bin/bash
# run.sh SEED: one more round of pick_s83_fail/run.sh's recipe, from s84 (shipped in the seventieth session):
# a bank of the training-layout episodes s84 fails (4000 from seed 7100000, a set neither s83's bank nor s84
# saw; kept as docs/results/starts/pick_s84_failed_train.json), then 1.2M steps from s84 with the same stage
# (the bank twice beside NoNav's first-pick bank twice and the fridge bank once at 0.45) into
# runs/dev/pick_s84_fail_sSEED (resumes when rerun); then the pick's 2200 held-out episodes paired with s84's
# outcomes there (pick_s83_fail/pick_s83_fail_s84_2200.json), and NoNav's single-attempt first pick on seeds
# 80-89 (never used before) for s84 and the new pick, compared episode by episode. The seventieth session:
# run.sh 85, run.sh 86; then the control `BANK=docs/results/starts/pick_s83_failed_train.json
# NAME=pick_s84_again run.sh 87`: s84's own stage once more (s83's failures for the bank), into
# runs/dev/pick_s84_again_s87.
seed=$1
source .venv/bin/activate
export MUJOCO_GL=egl
source docs/results/hab/diagnostics/pick_fridge_depth/nonav_single.sh
D=docs/results/hab/diagnostics/pick_s84_fail
P=docs/results/runs/pick_s83_fail_s84/pick.pt
N=docs/results/hab/diagnostics/arm_speed/nonav.sh
name=${NAME:-pick_s84_fail}_s$seed
fail_stage $name $P ${BANK:-$STARTS/pick_s84_failed_train.json} 7100000 $seed
pick_2200 $name $D/${name}_2200.json
python docs/results/hab/diagnostics/pick_s83_fail/pair.py $D/${name}_2200.json \
  docs/results/hab/diagnostics/pick_s83_fail/pick_s83_fail_s84_2200.json > $D/${name}_2200.txt
SEEDS="80 81 82 83 84 85 86 87 88 89" bash $N runs/eval70/nonav80 s84 capped checkpoints=pick:$P
SEEDS="80 81 82 83 84 85 86 87 88 89" bash $N runs/eval70/nonav80 $name capped \
  checkpoints=pick:runs/dev/$name/checkpoints/latest.pt
python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval70/nonav80 s84 $name > $D/${name}_nonav80.txt
