#!/bin/bash
# Place by goal receptacle: `receptacles.sh NAME POLICY [evaluate args...]`, 100 held-out episodes per
# receptacle (--seed 13000000) by HAB's place rule, one JSON line each into NAME_receptacles.jsonl.
source .venv/bin/activate
export MUJOCO_GL=egl
name=$1 policy=$2; shift 2
out=docs/results/hab/diagnostics/place_depth/${name}_receptacles.jsonl
[ -s "$out" ] && { echo "$out exists"; exit 1; }
for r in $(python -c "from skills.episodes import ALL_RECEPTACLES as A; print(' '.join(A))"); do
  python -m skills.evaluate "$policy" --episodes 100 --seed 13000000 --set release_speed=0 --set settle_speed=0 \
    --set clear_dist=0 --set "goal_receptacles=('$r',)" "$@" --json 2>/dev/null | tail -n1 |
    python -c "import json, sys; d = json.load(sys.stdin); print(json.dumps({'receptacle': '$r', **d}))" >> "$out"
done
python -c "
import json
for line in open('$out'):
    d = json.loads(line); print(f\"{d['receptacle']:16s} {100 * d['success']:5.1f}%  {d['failures']}\")"
