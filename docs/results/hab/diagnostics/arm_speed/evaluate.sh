#!/bin/bash
# evaluate.sh [SKILLS...]: every shipped skill (default: the nine arm skills) on the table's 200 held-out episodes,
# with today's arm and with the scaled lead cap (run.sh), into today_SKILL.json and fast_SKILL.json here;
# then compare.py prints both side by side (~10 min on 2 cores).
D=docs/results/hab/diagnostics/arm_speed
skills=${*:-open_fridge open_drawer close_fridge close_drawer pick place open_drawer_nobase pick_nobase place_nobase}
for k in $skills; do
  (source .venv/bin/activate && MUJOCO_GL=egl python -m skills.evaluate skills/checkpoints/$k.pt --episodes 200 --json) \
    | tail -1 > $D/today_$k.json
  bash $D/run.sh python -m skills.evaluate skills/checkpoints/$k.pt --episodes 200 --json | tail -1 > $D/fast_$k.json
done
source .venv/bin/activate && python $D/compare.py
