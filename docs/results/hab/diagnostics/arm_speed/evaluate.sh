#!/bin/bash
# evaluate.sh [SKILLS...]: every shipped skill (default: the nine arm skills) on the table's 200 held-out episodes,
# with today's arm and with the fast one (`--set arm_speed=fast`; until the sixty-eighth session a sitecustomize
# scaled the same caps, the outcomes identical), into today_SKILL.json and fast_SKILL.json here; then compare.py
# prints both side by side (~10 min on 2 cores).
D=docs/results/hab/diagnostics/arm_speed
source .venv/bin/activate
export MUJOCO_GL=egl
skills=${*:-open_fridge open_drawer close_fridge close_drawer pick place open_drawer_nobase pick_nobase place_nobase}
for k in $skills; do
  python -m skills.evaluate skills/checkpoints/$k.pt --episodes 200 --json | tail -1 > $D/today_$k.json
  python -m skills.evaluate skills/checkpoints/$k.pt --episodes 200 --json --set arm_speed=fast | tail -1 > $D/fast_$k.json
done
python $D/compare.py
