#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_nobase_aim/evaluate.sh` (against the shipped no-base place, s139, on
# the same episodes; its usage lines) writing its JSONs into this folder.
D=$(dirname $0) exec $(dirname $0)/../place_nobase_aim/evaluate.sh "$@"
