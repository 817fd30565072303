#!/bin/bash
# fresh.sh SEED...: the shipped no-base place's recipe from scratch (`place_from_base/fresh.sh`, its first two
# stages, HAB's place rule) with the constant-rate stage run to 3.5M steps instead of 2.53M, then 1.0M
# decayed to 0 (4.5M in all): whether longer training narrows the spread of its seeds (78.5-90.5% of the
# table's 200, fifty-sixth session); runs/dev/place_nobase_long_sSEED and _ft, one chain per seed, side by side.
NAME=place_nobase_long GENTLE=0 STEPS1=3500000 exec $(dirname $0)/../place_from_base/fresh.sh "$@"
