#!/bin/bash
# .dev/ws/pick_depth16.pt: python -m skills.warmstart skills/checkpoints/pick.pt .dev/ws/pick_depth16.pt --add-depth 16
# Four pick fine-tunes aimed at the fridge, four cores each, then their held-out evaluations (forty-second session).
B=docs/results/starts
FF=$B/pick_fridge_train.json,$B/pick_failed2_train.json
D="run.init_from=.dev/ws/pick_depth16.pt skill.depth=16 policy.image_encoder=flat ppo.obs_stats_until=500000"
train() {
  i=$1; name=$2; shift 2
  taskset -c $((4*i))-$((4*i+3)) timeout -s TERM 395 python3 -m skills.train skill=pick ppo.lr=1e-4 \
    ppo.lr_schedule=cosine ppo.lr_decay_start=0 run.total_steps=1200000 run.dir=runs/dev/$name \
    run.wandb=disabled run.progress=false "$@" > $OUT/$name.log 2>&1
  echo "$name rc $?" >> $OUT/rc.txt
}
train 0 pd_detour_ff_s40 $D skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=40 &
train 1 pd_detour_f_s41 $D skill.detour_reward=true skill.start_bank=$B/pick_fridge_train.json skill.start_bank_prob=0.3 run.seed=41 &
train 2 pd_ff_s42 $D skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=42 &
train 3 ps_detour_ff_s43 run.init_from=skills/checkpoints/pick.pt skill.detour_reward=true skill.start_bank=$FF skill.start_bank_prob=0.5 run.seed=43 &
wait
k=0
for n in pd_detour_ff_s40 pd_detour_f_s41 pd_ff_s42 ps_detour_ff_s43; do
  taskset -c $k timeout 110 python3 -m skills.evaluate runs/dev/$n --episodes 100 --seed 7000000 \
    --set "receptacles=('fridge',)" --set force_measure=peak --json > $OUT/${n}_fridge7000000.txt 2>&1 &
  taskset -c $((k+1)),$((k+2)) timeout 110 python3 -m skills.evaluate runs/dev/$n --episodes 200 --seed 9000000 \
    --set force_measure=peak --json > $OUT/${n}_seed9000000.txt 2>&1 &
  k=$((k+3))
done
taskset -c 12-15 timeout 110 python3 -m skills.evaluate skills/checkpoints/pick.pt --episodes 200 --seed 9000000 \
  --set force_measure=peak --json > $OUT/shipped_seed9000000.txt 2>&1 &
wait
for n in pd_detour_ff_s40 pd_detour_f_s41 pd_ff_s42 ps_detour_ff_s43; do
  tar czf $OUT/$n.tgz --exclude='update_*.pt' runs/dev/$n
done
ls -la $OUT runs/dev/*/checkpoints | head -40
