#!/bin/bash
# study.sh run OUT | compare: the study's tp_srl and tp_srl_nonav runs with the skills as shipped (100 held-out
# episodes per scenario, seed 0, 2 processes; ~25 min on 2 cores) into OUT; or the sixty-ninth session's runs
# compared episode by episode (study_compare.txt): s83 (shipped then; earlier/<s>-<a>-0069-pick-s83) against s69
# (shipped for part of the session, earlier/<s>-<a>-0069-pick-s69) and against s78 (shipped before,
# earlier/<s>-<a>-0054-pick-depth-s78), and s69 against s78. The session ran `study.sh run runs/eval69` with s69
# shipped, then `study.sh run runs/eval69s83` with s83, and copied each run's <s>-<a>-0000 there.
source .venv/bin/activate
export MUJOCO_GL=egl
H=docs/results/hab
for a in tp_srl tp_srl_nonav; do for s in tidy_house prepare_groceries set_table; do
  if [ "$1" = run ]; then
    tpsrl-eval scenario=$s agent=$a episodes=100 processes=2 progress=false out_dir=$2 > /dev/null
  else
    s83=$H/earlier/$s-$a-0069-pick-s83 s69=$H/earlier/$s-$a-0069-pick-s69 s78=$H/earlier/$s-$a-0054-pick-depth-s78
    for pair in "$s83 $s69" "$s83 $s78" "$s69 $s78"; do python -m evaluation.compare $pair | tail -1; done
  fi
done; done
