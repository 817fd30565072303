#!/bin/bash
# The no-base skills on Habitat 2.0's own per-skill spawn (`skill.spawn_rule=habitat2`: the free cell
# nearest the target, in front of the fridge or open drawer that holds it) and on the one they were trained
# and tabled on (within 1.0 m, uniformly), each on the same four held-out sets of 200 (seeds 1e6-4e6) by
# HAB's rules (place: its place and force rules, as place_updates/evaluate.sh; pick: the force rule's
# peak); then the shipped place (s103, with base) on the new spawn. JSONs here; runs already done are
# skipped.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_reach
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
PLACE="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
ev() {  # ev OUT POLICY ARGS...
  out=$D/$1.json; shift
  [ -s $out ] || python -m skills.evaluate "$@" --episodes 200 --seed 1000000,2000000,3000000,4000000 --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out'))
print('$(basename $out .json)', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\")"
}
ev place_nobase_habitat2_800 skills/checkpoints/place_nobase.pt $PLACE --set spawn_rule=habitat2
ev place_nobase_within_800 skills/checkpoints/place_nobase.pt $PLACE
ev pick_nobase_habitat2_800 skills/checkpoints/pick_nobase.pt --set force_measure=peak --set spawn_rule=habitat2
ev pick_nobase_within_800 skills/checkpoints/pick_nobase.pt --set force_measure=peak
ev place_habitat2_800 skills/checkpoints/place.pt $PLACE --set spawn_rule=habitat2
