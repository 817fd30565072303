#!/bin/bash
# record.sh [h2]: a bank of training-layout episodes of the no-base place's own task (spawns within 1.0 m,
# every goal once, as place_from_base/evaluate.sh draws them), from seed 3000000, never overwritten:
#   record.sh     the 2400 episodes' ones the shipped no-base place (s139) fails acting on its mean, by the
#                 rules it was trained on (its checkpoint's) -> docs/results/starts/place_nobase_failed_train.json
#   record.sh h2  800 episodes drawn by Habitat 2.0's per-skill spawn (`skill.spawn_rule=habitat2`: in front of
#                 the fridge or open drawer, else the free cell nearest the goal), a bank that mixes that spawn
#                 into training (`BANK=... finetune.sh`) -> docs/results/starts/place_nobase_h2_train.json
#   record.sh h2big  3200 more such episodes (from seed 3100000), a bank for training from scratch with that
#                 spawn mixed in (`place_nobase_h2mix/fresh.sh`) -> docs/results/starts/place_nobase_h2big_train.json
#   record.sh h2hard 1600 such episodes (from seed 3200000) whose goals are the ones s139 places least from that
#                 spawn: the drawer listed twice, the fridge, shelf and kitchen counter (`place_nobase_h2mix/hard.sh`)
#                 -> docs/results/starts/place_nobase_h2hard_train.json
source .venv/bin/activate
export MUJOCO_GL=egl
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
case ${1:-failed} in
  failed) out=docs/results/starts/place_nobase_failed_train.json
    how="--episodes 2400 --failures-of skills/checkpoints/place_nobase.pt" ;;
  h2) out=docs/results/starts/place_nobase_h2_train.json
    how="--episodes 800 --set spawn_rule=habitat2" ;;
  h2big) out=docs/results/starts/place_nobase_h2big_train.json seed=3100000
    how="--episodes 3200 --set spawn_rule=habitat2" ;;
  h2hard) out=docs/results/starts/place_nobase_h2hard_train.json seed=3200000
    goals="('drawer_0','drawer_0','fridge','shelf','kitchen_counter')"
    how="--episodes 1600 --set spawn_rule=habitat2" ;;
  *) echo "record.sh: $1 not known; give nothing (s139's failures), h2, h2big or h2hard" >&2; exit 2 ;;
esac
test -s $out || python -m skills.starts --task place --set base_movement=False --set spawn_max_dist=1.0 \
  --set goal_receptacles="${goals:-$ALL}" --split train --seed ${seed:-3000000} $how --out $out
