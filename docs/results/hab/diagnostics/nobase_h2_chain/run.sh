#!/bin/bash
# run.sh OUT: what the no-base chains do with the no-base pick fine-tuned from Habitat 2.0's per-skill spawn
# (docs/results/runs/pick_nobase_h2ft_s1/, sixty-fifth session; not shipped: which spawn measures the no-base
# skills is the user's decision, README's "Open decisions"). tp_srl_nobase on Tidy House and Prepare Groceries
# (the study's 100 held-out episodes each, seed 0, 2 processes), once with every skill as shipped (the
# study's runs again: tidy_house-tp_srl_nobase-0055 and prepare_groceries-tp_srl_nobase-0055) and once with
# that pick named by checkpoints=pick:..., into OUT/shipped and OUT/h2ft; then compared episode by episode
# (exact McNemar; compare.txt). ~25 min on 2 cores. Seventy-first session.
source .venv/bin/activate
export MUJOCO_GL=egl
out=$1
h2=docs/results/runs/pick_nobase_h2ft_s1/pick_nobase.pt
for s in tidy_house prepare_groceries; do
  tpsrl-eval scenario=$s agent=tp_srl_nobase episodes=100 processes=2 progress=false out_dir=$out/shipped > /dev/null
  tpsrl-eval scenario=$s agent=tp_srl_nobase episodes=100 processes=2 progress=false out_dir=$out/h2ft \
    checkpoints=pick:$h2 > /dev/null
done
for s in tidy_house prepare_groceries; do
  python -m evaluation.compare $out/shipped/$s-tp_srl_nobase-0000 docs/results/hab/$s-tp_srl_nobase-0055 | tail -1
  python -m evaluation.compare $out/h2ft/$s-tp_srl_nobase-0000 $out/shipped/$s-tp_srl_nobase-0000 | tail -3
done
