#!/bin/bash
# The shipped no-base place fine-tuned on Habitat 2.0's per-skill spawn (`skill.spawn_rule=habitat2`), the
# task the original TP-SRL's no-base skills were trained on: its own last stage's recipe (no base movement,
# the gentle rule with a release away costing 2.0, 1e-4 decayed to 0 at HAB's 2 x 2 updates), 1.0M steps,
# seed 125; then on the 800 held-out episodes of that spawn by HAB's place rule, against the shipped
# no-base place on the same episodes.
source .venv/bin/activate
export MUJOCO_GL=egl
D=docs/results/hab/diagnostics/place_reach
ALL="('kitchen_counter','kitchen_cabinet','dining_table','coffee_table','sofa','tv_stand','shelf','side_table','bookshelf','fridge','drawer_0')"
name=place_nobase_habitat2_s125
[ -e runs/dev/$name ] || python -m skills.train skill=place skill.base_movement=false skill.spawn_rule=habitat2 policy=cpu \
  ppo.epochs=2 ppo.num_minibatches=2 ppo.max_sequence_length=32 skill.grip_init_mean=2.0 skill.force_measure=sum \
  skill.drop_penalty=2.0 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
  run.total_steps=1000000 run.init_from=skills/checkpoints/place_nobase.pt run.wandb=disabled run.progress=false \
  run.seed=125 run.dir=runs/dev/$name > logs/$name.log 2>&1
out=$D/${name}_800.json
[ -s $out ] || python -m skills.evaluate runs/dev/$name --episodes 200 --seed 1000000,2000000,3000000,4000000 \
  --against skills/checkpoints/place_nobase.pt --set release_speed=0 --set settle_speed=0 --set clear_dist=0 \
  --set shut_tol=0 --set force_measure=peak --set goal_receptacles=$ALL --set spawn_rule=habitat2 \
  --set spawn_max_dist=1.0 --json 2>/dev/null | tail -n1 > $out
python -c "
import json; d = json.load(open('$out')); a = d['against']
print('$name', f\"{100 * d['success']:.2f}% [{100 * d['ci_low']:.1f}, {100 * d['ci_high']:.1f}] {d['failures']}\",
      f\"against {100 * a['success']:.2f}%: {d['gained']} / {d['lost']}, p {d['mcnemar_p']:.2g}\")"
