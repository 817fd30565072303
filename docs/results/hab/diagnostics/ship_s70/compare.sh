#!/bin/bash
# compare.sh: the seventieth session's study runs with s84 shipped (docs/results/hab/<s>-<a>-0070; made by
# `ship_s69/study.sh run runs/eval70s84`, each run's <s>-<a>-0000 copied there) against s83's
# (earlier/<s>-<a>-0069-pick-s83), episode by episode (study_compare.txt).
source .venv/bin/activate
H=docs/results/hab
for a in tp_srl tp_srl_nonav; do for s in tidy_house prepare_groceries set_table; do
  python -m evaluation.compare $H/$s-$a-0070 $H/earlier/$s-$a-0069-pick-s83 | tail -3
done; done
