#!/bin/bash
# The shipped place (s103) on starts drawn as habitat-sim draws them (`skill.spawn_rule=navmesh`: within 2 m
# of the goal and joined to it by free floor inside that circle), by HAB's place and force rules: on the
# 800's seeds (1e6-4e6; the same goals, some starts redrawn) and on eight sets never used (2e7-2.7e7).
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_reach
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
PLACE="--set release_speed=0 --set settle_speed=0 --set clear_dist=0 --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL"
ev() {  # ev OUT SEEDS
  out=$D/$1.json
  [ -s $out ] || python -m skills.evaluate skills/checkpoints/place.pt $PLACE --set spawn_rule=navmesh --episodes 200 \
    --seed $2 --json 2>/dev/null | tail -n1 > $out
  python -c "
import json; d = json.load(open('$out'))
print('$1', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\", d['sets'])"
}
ev place_navmesh_800 1000000,2000000,3000000,4000000 &
ev place_navmesh_fresh800 20000000,21000000,22000000,23000000 &
wait
ev place_navmesh_fresh400b 24000000,25000000 &
ev place_navmesh_fresh400c 26000000,27000000 &
wait
