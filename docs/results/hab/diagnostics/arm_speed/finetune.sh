#!/bin/bash
# finetune.sh SKILL NAME SEED STEPS: a shipped skill fine-tuned under the scaled lead cap (run.sh), as the shipped
# close_fridge was fine-tuned (1e-4, decayed to 0 by a cosine), from its shipped weights, into runs/dev/NAME;
# resumes when rerun. The sixty-seventh session: finetune.sh close_fridge fast_cf_ft 67 1000000 (14 min), then
#   bash run.sh python -m skills.evaluate runs/dev/fast_cf_ft --episodes 200 --json | tail -1 > finetuned_close_fridge.json
# (its weights: docs/results/runs/close_fridge_fastarm_ft/).
D=docs/results/hab/diagnostics/arm_speed
skill=$1 name=$2 seed=$3 steps=$4
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
bash $D/run.sh python -m skills.train skill=$skill run.seed=$seed ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 \
  run.init_from=skills/checkpoints/$skill.pt run.total_steps=$steps run.wandb=disabled run.progress=false run.dir=$d $r \
  >> logs/$name.log 2>&1
