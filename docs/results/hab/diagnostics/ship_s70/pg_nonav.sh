#!/bin/bash
# pg_nonav.sh LABEL PICK [SEEDS]: NoNav's first pick on Prepare Groceries (its object in the open fridge) with one
# attempt, as README's Tidy House figure (arm_speed/nonav.sh with SCENARIO=prepare_groceries), 100 held-out
# episodes per seed (default seeds 70-74, never used by any pick's choice), the pick PICK in place of the shipped
# one, into runs/eval70/pg_nonav/LABEL; compare two labels with
# `python docs/results/hab/diagnostics/arm_speed/nonav.py runs/eval70/pg_nonav A B`.
label=$1 pick=$2
SCENARIO=prepare_groceries SEEDS="${3:-70 71 72 73 74}" bash docs/results/hab/diagnostics/arm_speed/nonav.sh \
  runs/eval70/pg_nonav $label capped checkpoints=pick:$pick
