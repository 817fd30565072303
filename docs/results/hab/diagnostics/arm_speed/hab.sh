#!/bin/bash
# hab.sh OUT SKILLS...: tp_srl on Tidy House, Prepare Groceries and Set Table under the fast arm
# (chain.arm_speed=fast), the study's 100 held-out episodes each (seed 0), with the fine-tunes under that arm
# named (SKILLS: e.g. open_fridge close_fridge open_drawer, each docs/results/runs/SKILL_fastarm_ft/SKILL.pt; the
# others shipped), into OUT/<scenario>-tp_srl-*; then each against the study's tp_srl run, episode by episode.
# The sixty-eighth session: hab.sh runs/eval68 open_fridge close_fridge open_drawer (12 min on 2 cores; the runs and
# their comparison, compare.txt, in hab_ft3/), and with all five with-base fine-tunes,
# hab.sh runs/eval68b pick place open_fridge close_fridge open_drawer (hab_ft5/).
source .venv/bin/activate
export MUJOCO_GL=egl
out=$1; shift
ck=$(for k in "$@"; do printf "%s:docs/results/runs/%s_fastarm_ft/%s.pt," $k $k $k; done)
for s in tidy_house prepare_groceries set_table; do
  tpsrl-eval scenario=$s agent=tp_srl episodes=100 processes=2 progress=false out_dir=$out chain.arm_speed=fast \
    checkpoints=${ck%,} > /dev/null
  run=$(ls -d $out/$s-tp_srl-* | tail -1)
  python -m evaluation.compare $run docs/results/hab/earlier/$s-tp_srl-0054-pick-depth-s78 | tail -3
done
