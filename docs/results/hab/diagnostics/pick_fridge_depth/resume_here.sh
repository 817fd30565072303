#!/bin/bash
# .dev/ws/pick_depth16.pt: python -m skills.warmstart skills/checkpoints/pick.pt .dev/ws/pick_depth16.pt --add-depth 16
# Resume the four device runs to 1.2M steps here, two at a time (same overrides + run.resume=true).
source .venv/bin/activate
B=docs/results/starts
FF="'$B/pick_fridge_train.json,$B/pick_failed2_train.json'"
D="run.init_from=.dev/ws/pick_depth16.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000"
train() {
  name=$1; shift
  python -m skills.train skill=pick ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 \
    run.total_steps=1200000 run.dir=runs/dev/$name run.wandb=disabled run.progress=false run.resume=true "$@" \
    > logs/$name.resume.log 2>&1
  echo "$name rc $?" >> logs/resume_fridge.rc
}
( train pd_detour_f_s41 $D skill.detour_reward=true skill.start_bank=$B/pick_fridge_train.json skill.start_bank_prob=0.3 run.seed=41
  train pd_detour_ff_s40 $D skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=40 ) &
( train ps_detour_ff_s43 run.init_from=skills/checkpoints/pick.pt skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=43
  train pd_ff_s42 $D skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=42 ) &
wait
