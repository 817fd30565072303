#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: runs/dev/NAME (or a checkpoint path) on its own task as trained (no base
# movement, Habitat 2.0's open/close spawn, HAB's force rule reading the largest contact), 200 held-out
# episodes from each comma-separated seed, pooled; writes NAME_SUFFIX.json here.
#   evaluate.sh 1e6 1000000,2000000 NAME        (the 400 the runs were compared on)
#   evaluate.sh 70e6 70000000,71000000,72000000,73000000 NAME   (never used before)
source .venv/bin/activate
export MUJOCO_GL=egl
D=$(dirname $0)
suffix=$1 seeds=$2; shift 2
ev() {
  name=$(basename $1 .pt); out=$D/${name}_$suffix.json
  path=$1; [ -e $path ] || path=runs/dev/$1
  [ -s $out ] || python -m skills.evaluate $path --episodes 200 --seed $seeds --set force_measure=peak --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out'))
print('$name $suffix', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] of {d['episodes']}\", d['failures'], 'mean steps', round(d['mean_steps']))"
}
for name in "$@"; do ev $name & done
wait
