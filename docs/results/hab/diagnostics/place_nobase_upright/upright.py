"""Can the arm hold the object upright at its goal from where the no-base place starts? (fifty-eighth session)

    python docs/results/hab/diagnostics/place_nobase_upright/upright.py SEED EPISODES [TILT.txt] \
        [--spawn RULE] [--starts N] [--tall-above Z] > OUT.txt

On the no-base place's episodes SEED + k (as `place_nobase_fails/fails.py`, drawn again, no rollout), an
offline inverse kinematics over the seven arm joints (the base where the episode starts it, the object held
as the episode starts it) looks for an arm pose that puts the held object's centre 2 cm above its goal,
twice: free (position only) and upright (the object's up axis also turned toward the vertical, four ways:
`least_tilt`; the smallest tilt kept). Least squares from the start pose and 24 random ones within the
joint ranges; a pose counts when the centre is within 1.5 cm of the aim and neither the robot nor the object
sinks more than 1 cm into anything else. Per episode: the object type, the least tilt (degrees) of a pose
found free and of one found upright (none: no pose), and with TILT.txt (`place_nobase_fails/tilt.py`'s
output on the same episodes) the learned place's outcome and release angle. Last, by object size and goal
height, how many goals a pose reaches at all and how many upright (under 15 degrees, about where a tall
object starts to topple).

`--spawn habitat2`: the same goals, the robot where Habitat 2.0's per-skill tasks start it
(`skill.spawn_rule`). `--starts N`: N random starts instead of 24. `--tall-above Z`: only the tall objects
whose goal is Z m high or more (the rows, no table).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

import mujoco
import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "place_nobase_fails"))
from fails import held_kind, redrawn, size_group  # noqa: E402

from tpsrl.sim.mujoco.sim import _arm_ranges  # noqa: E402

AIM_DZ = 0.02
"""The object's centre is aimed this far (m) above its goal (let go just above the surface)."""
POS_TOL = 0.015
"""A pose counts when the object's centre is within this (m) of the aim."""
SINK = 0.01
"""... and nothing of the arm or the object sinks deeper than this (m) into the world."""
UPRIGHT = 15.0
"""Degrees of tilt under which a pose counts as upright."""
STARTS = 24


class HeldArm:
    """The arm's kinematics with the held object fixed to the gripper, on a scratch copy of the sim's data."""

    def __init__(self, b, handle: str, ranges: np.ndarray) -> None:
        """`ranges`: [7, 2] the arm joints' ranges (+-pi for the unlimited rolls; `sim._arm_ranges`)."""
        m, d = b.model, b.data
        self.m, self.d = m, mujoco.MjData(m)
        self.d.qpos[:] = d.qpos
        mujoco.mj_kinematics(m, self.d)
        self.q_adr = b._arm_q
        self.cols = np.array([m.jnt_dofadr[m.actuator_trnid[u, 0]] for u in b._arm_u])
        self.lo, self.hi = ranges[:, 0], ranges[:, 1]
        self.body = int(m.site_bodyid[b._grip_site])
        obj = int(b._obj_body[b._handle_index[handle]])
        Rg, pg = d.xmat[self.body].reshape(3, 3), d.xpos[self.body]
        Ro = d.xmat[obj].reshape(3, 3)
        self.p_rel = Rg.T @ (d.xpos[obj] - pg)
        self.R_rel = Rg.T @ Ro
        self.free = int(m.jnt_qposadr[m.body_jntadr[obj]])
        self.held = set(b._held_geoms[handle])
        self.robot = b._robot_geom
        self.q0 = d.qpos[self.q_adr].copy()

    def pose(self, q: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Object centre and object rotation with the arm at q."""
        self.d.qpos[self.q_adr] = q
        mujoco.mj_kinematics(self.m, self.d)
        mujoco.mj_comPos(self.m, self.d)  # mj_jac reads the dof axes it computes
        Rg = self.d.xmat[self.body].reshape(3, 3)
        return self.d.xpos[self.body] + Rg @ self.p_rel, Rg @ self.R_rel

    def solve(self, q: np.ndarray, aim: np.ndarray, weight: float | None, iters: int = 300) -> np.ndarray:
        """Least squares toward the aim from q, within the joint ranges. weight None: position only; 0: the
        up axis turned toward the vertical in the position task's null space; > 0: the up axis's x and y
        stacked under the position rows at `weight` m per unit."""
        jacp, jacr = np.zeros((3, self.m.nv)), np.zeros((3, self.m.nv))
        for _ in range(iters):
            p, R = self.pose(q)
            mujoco.mj_jac(self.m, self.d, jacp, jacr, p, self.body)
            Jp, Jr = jacp[:, self.cols], jacr[:, self.cols]
            r, u = aim - p, R[:, 2]
            Ju = -np.cross(u, Jr.T).T[:2]  # d(u_x, u_y)/dq: the up axis u turns by w x u
            if weight is None or weight == 0.0:
                dq = Jp.T @ np.linalg.solve(Jp @ Jp.T + 1e-6 * np.eye(3), r)
            if weight == 0.0:
                N = np.eye(len(q)) - np.linalg.pinv(Jp) @ Jp
                JuN = Ju @ N
                dq = dq + N @ (JuN.T @ np.linalg.solve(JuN @ JuN.T + 1e-4 * np.eye(2), -u[:2] - Ju @ dq))
            elif weight is not None:
                J, e = np.vstack([Jp, weight * Ju]), np.concatenate([r, -weight * u[:2]])
                dq = J.T @ np.linalg.solve(J @ J.T + 1e-6 * np.eye(5), e)
            n = np.linalg.norm(dq)
            if n > 0.2:
                dq *= 0.2 / n
            q = np.clip(q + dq, self.lo, self.hi)
            if n < 1e-5:
                break
        return q

    def sunk(self, q: np.ndarray) -> bool:
        """Whether the robot or the object at this pose sinks more than SINK into anything else."""
        p, R = self.pose(q)
        quat = np.zeros(4)
        mujoco.mju_mat2Quat(quat, R.reshape(-1))
        self.d.qpos[self.free : self.free + 3] = p
        self.d.qpos[self.free + 3 : self.free + 7] = quat
        mujoco.mj_forward(self.m, self.d)
        for c in self.d.contact[: self.d.ncon]:
            g1, g2 = int(c.geom1), int(c.geom2)
            ours1 = bool(self.robot[g1]) or g1 in self.held
            ours2 = bool(self.robot[g2]) or g2 in self.held
            if ours1 != ours2 and c.dist < -SINK:
                return True
        return False


def tilt(R: np.ndarray) -> float:
    return float(np.degrees(np.arccos(np.clip(R[2, 2], -1.0, 1.0))))


def least_tilt(
    arm: HeldArm, aim: np.ndarray, upright: bool, rng: np.random.Generator, starts: int = STARTS
) -> float | None:
    """The least tilt of the poses found that reach the aim without sinking into anything; None if none.
    Upright: each start solved four ways (null space; stacked at 0.03, 0.1 and 0.3, each then brought back
    onto the aim by position alone), the free poses' tilts counted too."""
    best = None
    for q0 in [arm.q0] + [rng.uniform(arm.lo, arm.hi) for _ in range(starts)]:
        found = [arm.solve(q0.copy(), aim, None)]
        if upright:
            found.append(arm.solve(q0.copy(), aim, 0.0))
            for w in (0.03, 0.1, 0.3):
                found.append(arm.solve(arm.solve(q0.copy(), aim, w), aim, None, iters=50))
        for q in found:
            p, R = arm.pose(q)
            if np.linalg.norm(p - aim) > POS_TOL or arm.sunk(q):
                continue
            t = tilt(R)
            best = t if best is None else min(best, t)
        if best is not None and best < 1.0:
            break
    return best


def read_tilt(path: str) -> dict[int, tuple[bool, str]]:
    """Per episode index: the learned place's success and its release angle, from `tilt.py`'s output."""
    out = {}
    for line in Path(path).read_text().splitlines():
        m = re.match(r"\s*(\d+) (ok  |FAIL) \S+\s+tilt at release (never|\s*[\d.]+)", line)
        if m:
            out[int(m.group(1))] = (m.group(2) == "ok  ", m.group(3).strip())
    return out


def degrees(v: float | None) -> str:
    return "none" if v is None else f"{v:5.1f}"


def band(z: float) -> str:
    return "0.0-0.5" if z < 0.5 else "0.5-0.8" if z < 0.8 else "0.8-1.1" if z < 1.1 else "1.1-9.9"


def main(
    seed: int, count: int, tilt_path: str | None, spawn: str, starts: int, tall_above: float | None
) -> None:
    learned = read_tilt(tilt_path) if tilt_path else {}
    rng, ranges = np.random.default_rng(0), np.array(_arm_ranges())
    n, free_ok, up_ok, placed = Counter(), Counter(), Counter(), Counter()
    for k, env in enumerate(redrawn(range(seed, seed + count), spawn_rule=spawn)):
        b, t = env.backend, env.task
        kind = held_kind(b.spec, t.target)
        if tall_above is not None and (size_group(kind) != "tall" or t.goal[2] < tall_above):
            continue
        arm = HeldArm(b, t.target, ranges)
        aim = np.asarray(t.goal, dtype=np.float64) + np.array([0.0, 0.0, AIM_DZ])
        free = least_tilt(arm, aim, False, rng, starts)
        up = least_tilt(arm, aim, True, rng, starts)
        key = (size_group(kind), band(float(t.goal[2])))
        n[key] += 1
        free_ok[key] += free is not None
        up_ok[key] += up is not None and up < UPRIGHT
        extra = ""
        if k in learned:
            ok, at = learned[k]
            placed[key] += ok
            extra = f"  learned {'ok  ' if ok else 'FAIL'} release {at}"
        print(
            f"{k:3d} {kind:16s} goal z {t.goal[2]:.2f}  free {degrees(free)}  upright {degrees(up)}{extra}",
            flush=True,
        )
    if tall_above is not None:
        return
    print()
    print(
        f"goals reached by some arm pose (within {POS_TOL} m, nothing sunk {SINK} m), and upright (< {UPRIGHT} deg)"
    )
    print("       height (m)  goals  reached  upright" + ("  learned placed" if learned else ""))
    for key in sorted(n):
        row = f"{key[0]:5s}  {key[1]:9s}  {n[key]:5d}  {free_ok[key]:7d}  {up_ok[key]:7d}"
        if learned:
            row += f"  {placed[key]:14d}"
        print(row)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed", type=int)
    parser.add_argument("episodes", type=int)
    parser.add_argument("tilt", nargs="?", help="tilt.py's output on the same episodes")
    parser.add_argument("--spawn", default="within", help="skill.spawn_rule (default: the no-base place's)")
    parser.add_argument("--starts", type=int, default=STARTS, help="random starts per solve")
    parser.add_argument("--tall-above", type=float, help="only tall objects with goals this high (m) or more")
    a = parser.parse_args()
    main(a.seed, a.episodes, a.tilt, a.spawn, a.starts, a.tall_above)
