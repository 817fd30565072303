#!/bin/bash
# chains.sh NAME: NoNav's seed 74 for s83 and NAME (the set's episode 85 stopped both runs before the episode
# generator was mended), the seeds 70-79 comparison again, then NAME in the study's chains: tp_srl and tp_srl_nonav
# with checkpoints=pick:docs/results/runs/NAME/pick.pt (100 held-out episodes per scenario, seed 0; ~25 min on 2
# cores) into runs/eval69/NAME/, each against s83's runs (docs/results/hab/earlier/*-0069-pick-s83).
name=$1
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/pick_s83_fail
N=docs/results/hab/diagnostics/arm_speed/nonav.sh
P=docs/results/runs/$name/pick.pt
SEEDS=74 bash $N runs/eval69/nonav70 s83 capped checkpoints=pick:docs/results/runs/pick_depth_back_s83/pick.pt
SEEDS=74 bash $N runs/eval69/nonav70 $name capped checkpoints=pick:$P
python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval69/nonav70 s83 $name > $D/${name}_nonav70.txt
for a in tp_srl tp_srl_nonav; do for s in tidy_house prepare_groceries set_table; do
  tpsrl-eval scenario=$s agent=$a episodes=100 processes=2 progress=false out_dir=runs/eval69/$name \
    checkpoints=pick:$P > /dev/null
  python -m evaluation.compare $(ls -d runs/eval69/$name/$s-$a-* | tail -1) docs/results/hab/earlier/$s-$a-0069-pick-s83 | tail -3
done; done > $D/${name}_chains.txt
