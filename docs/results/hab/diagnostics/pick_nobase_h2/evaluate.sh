#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: runs/dev/NAME (or a checkpoint path) as a no-base pick, 200 held-out episodes
# from each comma-separated seed, against the shipped no-base pick on the same episodes (exact McNemar), by the
# rules it was trained on, the starts by `skill.spawn_rule` SPAWN (default within: the no-base pick's own, within
# 1.0 m; habitat2: Habitat 2.0's per-skill spawn), for both policies. Writes
# NAME_SUFFIX.json here.
#   own starts (within 1.0 m):  evaluate.sh 70e6 70000000,71000000 NAME
#   Habitat 2.0's spawn:        SPAWN=habitat2 evaluate.sh h2_72e6 72000000,73000000 NAME
source .venv/bin/activate
export MUJOCO_GL=egl
D=$(dirname $0)
suffix=$1 seeds=$2; shift 2
ev() {
  name=$(basename $1 .pt); out=$D/${name}_$suffix.json
  path=$1; [ -e $path ] || path=runs/dev/$1
  [ -s $out ] || python -m skills.evaluate $path --episodes 200 --seed $seeds --against skills/checkpoints/pick_nobase.pt \
    --set spawn_rule=${SPAWN:-within} --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$name $suffix', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}% {a['failures']}: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
}
for name in "$@"; do ev $name & done
wait
