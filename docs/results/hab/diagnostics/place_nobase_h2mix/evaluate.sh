#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_nobase_aim/evaluate.sh` (against s139 on the same episodes) writing here.
D=$(dirname $0) exec $(dirname $0)/../place_nobase_aim/evaluate.sh "$@"
