#!/bin/bash
# study.sh: with the pick s69 shipped, the study's tp_srl and tp_srl_nonav runs anew (100 held-out episodes
# per scenario, seed 0, 2 processes; ~25 min on 2 cores), then each against the run with s78 on the same
# episodes. The sixty-ninth session ran the loop into runs/eval69/ and copied the runs to
# docs/results/hab/<scenario>-<agent>-0069 (s78's moved to earlier/*-0054-pick-depth-s78); `study.sh compare`
# prints the comparisons from those (study_compare.txt).
source .venv/bin/activate
export MUJOCO_GL=egl
for a in tp_srl tp_srl_nonav; do for s in tidy_house prepare_groceries set_table; do
  if [ "$1" = compare ]; then run=docs/results/hab/$s-$a-0069; else
    tpsrl-eval scenario=$s agent=$a episodes=100 processes=2 progress=false out_dir=runs/eval69 > /dev/null
    run=$(ls -d runs/eval69/$s-$a-* | tail -1); fi
  python -m evaluation.compare $run docs/results/hab/earlier/$s-$a-0054-pick-depth-s78 | tail -3
done; done
