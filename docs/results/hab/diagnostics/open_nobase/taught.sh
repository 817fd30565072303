#!/bin/bash
# taught.sh NAME SEED [STEPS]: the no-base open_drawer taught to finish by the scripted arm-only controller, then
# fine-tuned by PPO at HAB's 200 steps. (1) `python -m skills.imitate` from the slack run's weights
# (docs/results/runs/open_drawer_nobase_h2_slack_s0_3: grasps at step 62-72 and has the drawer at 0.40 m at
# 146-164, but never returns to rest and stops): 6 DAgger rounds of 100 episodes, the teacher taking over once
# the student lets go (at a step drawn below 200), noise 0.1 on its executed actions, 60 epochs a round, the
# student's own actions held where the teacher gives no label (--keep-own 1.0), into runs/imitate/NAME.pt;
# (2) STEPS (2.0M) of PPO from it at 1e-4 decayed to 0 by a cosine, train.sh's settings otherwise (Habitat
# 2.0's open/close spawn, the peak force rule, the stop output's initial mean -2 as the source was built;
# the slack penalty 0.005 the source had, not HAB's), into runs/dev/NAME. Resumes when rerun.
source .venv/bin/activate
export MUJOCO_GL=egl
name=$1 seed=$2 steps=${3:-2000000}
t=runs/imitate/$name.pt
mkdir -p runs/imitate
test -f $t || python -u -m skills.imitate docs/results/runs/open_drawer_nobase_h2_slack_s0_3/open_drawer_nobase.pt \
  $t --rounds 6 --episodes 100 --takeover 200 --noise 0.1 --keep-own 1.0 --epochs 60 --seed $seed \
  >> logs/$name.imitate.log 2>&1 || exit 1
d=runs/dev/$name
r=$(test -f $d/checkpoints/latest.pt && echo run.resume=true || true)
python -m skills.train skill=open_drawer skill.base_movement=false skill.spawn_rule=habitat2 skill.force_measure=peak \
  skill.slack_penalty=0.005 ppo.lr=1e-4 ppo.lr_schedule=cosine ppo.lr_decay_start=0.0 run.total_steps=$steps \
  run.wandb=disabled run.progress=false "policy.init_action_mean=[0,0,0,0,0,0,0,0,-2.0]" run.seed=$seed \
  run.init_from=$t run.dir=$d $r >> logs/$name.log 2>&1
