#!/bin/bash
# .dev/ws/pick_depth16.pt: python -m skills.warmstart skills/checkpoints/pick.pt .dev/ws/pick_depth16.pt --add-depth 16
B=docs/results/starts
FF="'$B/pick_fridge_train.json,$B/pick_failed2_train.json'"
D="run.init_from=.dev/ws/pick_depth16.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000"
train() {
  i=$1; name=$2; shift 2
  taskset -c $((5*i))-$((5*i+4)) timeout -s TERM 265 python3 -m skills.train skill=pick ppo.lr=1e-4 \
    ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.dir=runs/dev/$name \
    run.wandb=disabled run.progress=false "$@" > $OUT/$name.log 2>&1
}
train 0 pd_detour_ff_s40 $D skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=40 &
train 1 pd_ff_s42 $D skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=42 &
train 2 ps_detour_ff_s43 run.init_from=skills/checkpoints/pick.pt skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=43 &
wait
for n in pd_detour_ff_s40 pd_ff_s42 ps_detour_ff_s43; do tar czf $OUT/$n.tgz runs/dev/$n; done
tail -n 3 $OUT/*.log
