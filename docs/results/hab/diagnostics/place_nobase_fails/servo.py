"""Would an arm that keeps the held object upright place tall objects better? A scripted test of the
end-effector action itself, without a learned policy (fifty-sixth session).

    python docs/results/hab/diagnostics/place_nobase_fails/servo.py EPISODES SEED [LEVEL_WEIGHT] [--spawn RULE]
        [--lean DEGREES] [--grasp centre]

On the no-base place's episodes (HAB's rules, as `fails.py`), a privileged servo drives the held object's
centre toward 3 cm above its goal through `arm_ee_action` (the step the object is off, as an EE
displacement), lets go once within 1.5 cm or stalled (15 steps without 2 mm of progress, or 150 steps),
lifts the gripper 6 cm and takes it to rest. With LEVEL_WEIGHT the EE action's IK (HAB's is position
only, as ours) also turns the gripper so the held object's up axis goes back toward the vertical: two
rows of the gripper's rotational Jacobian (world x and y) weighted by LEVEL_WEIGHT (m per rad) stacked
under the position rows, at most 0.05 rad of correction per step; with --lean the aim is the vertical
tipped that far away from the robot (sixty-first session). --grasp centre holds the object by its centre
as habitat-lab's grasp does (`skill.grasp`). Prints success for tall objects (half-height >= 0.085 m) and
the others.
"""

from __future__ import annotations

import argparse
import math

import mujoco
import numpy as np
from fails import held_kind, nobase_env, size_group  # (this folder)

from skills.evaluate import load
from skills.policy import ActionLayout
from skills.terms import rest_world
from tpsrl.sim.mujoco import sim as S


def levelling(weight: float, lean: float = 0.0):
    """`MujocoSim.ee_arm_action` whose IK also levels the held object (test only, not in the package), or
    with `lean` (degrees) tips its up axis that far away from the robot (along the base-to-gripper line)."""

    def ee_arm_action(self, delta: np.ndarray) -> np.ndarray:
        v = np.clip(np.asarray(delta, dtype=np.float64).reshape(3), -1.0, 1.0) * S.EE_SCALE
        c, s = math.cos(self.base_pose[2]), math.sin(self.base_pose[2])
        step = np.array([c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]])
        if self.held not in self._handle_index:
            return self.arm_action_for_ee_step(step, from_joints=False)
        m, d = self.model, self.data
        jacp, jacr = np.zeros((3, m.nv)), np.zeros((3, m.nv))
        mujoco.mj_jacSite(m, d, jacp, jacr, self._grip_site)
        cols = m.jnt_dofadr[m.actuator_trnid[self._arm_u, 0]]
        up = d.xmat[self._obj_body[self._handle_index[self.held]]].reshape(3, 3)[:, 2]
        away = self.ee_pos_world[:2] - self.base_pose[:2]
        away /= max(float(np.linalg.norm(away)), 1e-9)
        a = math.radians(lean)
        turn = np.cross(up, [math.sin(a) * away[0], math.sin(a) * away[1], math.cos(a)])[:2]
        size = float(np.linalg.norm(turn))
        if size > 0.05:
            turn *= 0.05 / size
        J = np.vstack([jacp[:, cols], weight * jacr[:2, cols]])
        dq = J.T @ np.linalg.solve(J @ J.T + 1e-2 * np.eye(5), np.concatenate([step, weight * turn]))
        return np.clip(dq / S.ARM_SCALE, -1.0, 1.0)

    return ee_arm_action


def main(
    count: int,
    seed: int,
    weight: float | None,
    spawn: str = "within",
    lean: float = 0.0,
    grasp: str = "contact",
) -> None:
    if weight is not None:
        S.MujocoSim.ee_arm_action = levelling(weight, lean)
    _, fields = load("skills/checkpoints/place_nobase.pt")
    env = nobase_env(fields, spawn_rule=spawn, grasp=grasp)
    act = ActionLayout.of(env)
    placed = {"tall": [0, 0], "other": [0, 0]}
    for k in range(count):
        env.reset(seed=seed + k)
        b, t = env.backend, env.task
        kind = held_kind(b.spec, t.target)
        phase, best, stall, steps, top, done, info = "carry", math.inf, 0, 0, 0.0, False, {}
        while not done:
            if phase == "carry":
                p, aim = b.object_pos(t.target), t.goal + np.array([0.0, 0.0, 0.03])
                gap = float(np.linalg.norm(aim - p))
                stall = stall + 1 if gap > best - 0.002 else 0
                best = min(best, gap)
                arm, grip = (b.world_to_base(aim) - b.world_to_base(p)) / S.EE_SCALE, 1.0
                if gap < 0.015 or stall > 15 or steps > 150:
                    phase, arm, grip, top = "lift", np.zeros(3), -1.0, b.ee_pos_world[2] + 0.06
            elif phase == "lift":
                arm, grip = np.array([0.0, 0.0, 1.0]), -1.0
                phase = "rest" if b.ee_pos_world[2] > top - 0.01 else "lift"
            else:
                arm, grip = (
                    (b.world_to_base(rest_world(b)) - b.world_to_base(b.ee_pos_world)) / S.EE_SCALE,
                    -1.0,
                )
            _, _, terminated, truncated, info = env.step(act.make(arm_ee=np.clip(arm, -1.0, 1.0), grip=grip))
            done, steps = terminated or truncated, steps + 1
        group = placed[size_group(kind)]
        group[0] += info["episode_stats"].get("success", 0.0) > 0.5
        group[1] += 1
    env.close()
    shown = "HAB's position-only IK" if weight is None else f"levelling IK, weight {weight}"
    shown += f", leaning {lean:g} degrees away" if lean and weight is not None else ""
    shown += "" if spawn == "within" else f" ({spawn} spawn)"
    shown += "" if grasp == "contact" else f" ({grasp} grasp)"
    total = sum(g[0] for g in placed.values()), sum(g[1] for g in placed.values())
    print(
        f"{shown}: {total[0]} of {total[1]} placed; tall {placed['tall'][0]} of {placed['tall'][1]}, "
        f"other {placed['other'][0]} of {placed['other'][1]}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("episodes", type=int)
    parser.add_argument("seed", type=int)
    parser.add_argument("weight", type=float, nargs="?", help="levelling weight (m/rad); none: position only")
    parser.add_argument("--spawn", default="within", help="skill.spawn_rule (default: the no-base place's)")
    parser.add_argument(
        "--lean", type=float, default=0.0, help="with a weight: the up axis's aim, degrees away"
    )
    parser.add_argument("--grasp", default="contact", help="skill.grasp (centre: habitat-lab's)")
    a = parser.parse_args()
    main(a.episodes, a.seed, a.weight, a.spawn, a.lean, a.grasp)
