#!/bin/bash
# resume the device's pick fine-tunes two at a time
source .venv/bin/activate
one() { b=$1; s=$2; n=$3
  python -m skills.train skill=pick run.init_from=docs/results/runs/pick_envs32/pick.pt ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0 skill.start_bank=docs/results/starts/pick_failed_train.json skill.start_bank_prob=0.5 run.total_steps=1500000 run.seed=$s engine.num_envs=$n run.dir=runs/dev/$b run.wandb=disabled run.progress=false run.resume=true > logs/$b.resume.log 2>&1
  echo "$b done rc=$? $(date)" >> logs/finish.log
}
for pair in "18 22" "19 23" "20 24" "21 25"; do
  set -- $pair
  one pick_ft_e32_s$1 $1 32 & one pick_ft_e64_s$2 $2 64 & wait
done
