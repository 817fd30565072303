#!/bin/bash
# finetune.sh SEED...: the shipped no-base pick (skills/checkpoints/pick_nobase.pt) fine-tuned 1.0M steps at 1e-4
# decayed to 0 by a cosine, every episode started by Habitat 2.0's per-skill spawn (`skill.spawn_rule=habitat2`),
# its own settings otherwise (the pick preset's LSTM, 16 envs, grip start 3.0, the force rule it was trained by:
# contacts summed). One run per seed, side by side, into runs/dev/pick_nobase_h2ft_sSEED; resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
for s in "$@"; do
  d=runs/dev/pick_nobase_h2ft_s$s
  r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
  python -m skills.train skill=pick skill.base_movement=false skill.spawn_max_dist=1.0 engine.num_envs=16 \
    skill.spawn_rule=habitat2 skill.force_measure=sum ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 \
    run.total_steps=1000000 run.init_from=skills/checkpoints/pick_nobase.pt run.seed=$s run.wandb=disabled \
    run.progress=false run.dir=$d $r >> logs/pick_nobase_h2ft_s$s.log 2>&1 &
done
wait
