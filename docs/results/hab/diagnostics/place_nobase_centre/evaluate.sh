#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_nobase_aim/evaluate.sh` (against the shipped no-base place, s139, on
# the same episodes; its usage lines) writing its JSONs into this folder. Each policy runs under its own
# skill config: NAME (trained with `skill.grasp=centre`) holds the object by its centre, s139 where the cup
# touched it; the episodes (goals, starts, objects) are the same.
D=$(dirname $0) exec $(dirname $0)/../place_nobase_aim/evaluate.sh "$@"
