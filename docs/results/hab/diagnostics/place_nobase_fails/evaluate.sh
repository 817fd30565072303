#!/bin/bash
# evaluate.sh SUFFIX SEEDS NAME...: `place_from_base/evaluate.sh` writing its JSONs into this folder (the
# fifty-sixth session's runs: both.sh, gentle.sh, and s139's gentle stage on 4.0e7-4.3e7).
D=docs/results/hab/diagnostics/place_nobase_fails exec docs/results/hab/diagnostics/place_from_base/evaluate.sh "$@"
