#!/bin/bash
# run.sh COMMAND...: runs COMMAND with the arm's lead cap scaled so its joints move at 0.80-0.98 of HAB's 0.0125 rad
# a step (pan x1.75, lift x1.3, upper-arm roll x1.05, elbow x1.8, forearm roll and wrist flex x2.3; wrist roll as
# it is; `python docs/results/hab/diagnostics/arm_speed/rates.py` measures them), in every process it starts.
# e.g. bash docs/results/hab/diagnostics/arm_speed/run.sh python -m skills.evaluate skills/checkpoints/pick.pt --episodes 200
source .venv/bin/activate
export MUJOCO_GL=egl TPSRL_DIAG_ARM_LEAD_SCALE=${TPSRL_DIAG_ARM_LEAD_SCALE:-1.75,1.3,1.05,1.8,2.3,2.3,1}
export PYTHONPATH=docs/results/hab/diagnostics/arm_speed/site${PYTHONPATH:+:$PYTHONPATH}
exec "$@"
