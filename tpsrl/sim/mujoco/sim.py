"""The MuJoCo simulator: robot control at 30 Hz over 120 Hz physics, suction grasping, contact forces.

`MujocoSim` owns one model copy and its data. It knows nothing of tasks or rewards: it moves the robot,
reports state (poses, joints, holding, forces, articulations) and renders depth and RGB frames.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from ..backend import ARM_SPEEDS, GRASPS, DepthSettings
from ..episode import EpisodeRules, EpisodeSpec, validate_episode
from . import layout as L
from .depth import GLDepth, RangeRing, RayCastDepth
from .geodesic import GeodesicDistance
from .objects import OBJECT_TYPES, object_type
from .overlap import bad_state_count, check_initial_state
from .robot import (
    ARM_JOINTS,
    ARM_LEADS,
    BASE_JOINTS,
    BASE_KV,
    BASE_LEAD,
    BASE_MAX_EFFORT,
    CT_HELD,
    CT_OBJECT,
    CT_WORLD,
    GROUP_ROBOT,
    REST_QPOS,
    wrap_rolls,
)
from .scene import CT_FLOOR, DRAWER_OPEN_MAX, FRIDGE_OPEN_MAX, build_model, compile_model

SUBSTEPS = 4  # 120 Hz physics, 30 Hz control
ARM_SCALE = 0.0125  # rad per unit arm action per control step (HAB)
EE_SCALE = 0.015  # metres of EE displacement per unit arm_ee_action per control step (HAB ee_ctrl_lim)
# HAB integrates 10 * action over 1/120 s per control step: <= 0.083 m (rad) per step = 2.5 m/s (rad/s).
BASE_LIN_SPEED = 10.0 / 120.0 * 30.0
BASE_ANG_SPEED = 10.0 / 120.0 * 30.0
PATH_CACHE = 16  # goals whose distance fields shortest_path keeps (about 20 ms to grow one)
MAX_QVEL = 1e3  # beyond this the physics is considered to have exploded
ARTICULATIONS: dict[str, tuple[float, float]] = {"fridge": (0.0, FRIDGE_OPEN_MAX)} | {
    f"drawer_{i}": (0.0, DRAWER_OPEN_MAX) for i in range(L.NUM_DRAWERS)
}


def episode_rules() -> EpisodeRules:
    """What this backend accepts in an episode spec."""
    return EpisodeRules(
        num_layouts=L.NUM_LAYOUTS,
        object_types=frozenset(OBJECT_TYPES),
        articulations=ARTICULATIONS,
        arm_ranges=_arm_ranges(),
        bounds=(0.0, 0.0, *L.APARTMENT_SIZE),
    )


def _arm_ranges() -> tuple[tuple[float, float], ...]:
    m = build_model(0, ())
    out = []
    for n in ARM_JOINTS:
        j = m.joint(f"robot0:{n}").id
        out.append(tuple(m.jnt_range[j]) if m.jnt_limited[j] else (-math.pi, math.pi))
    return tuple(out)  # type: ignore[return-value]


class MujocoSim:
    """One simulated apartment with the Fetch robot. Reset with an `EpisodeSpec`, then `step`."""

    def __init__(
        self, depth: DepthSettings | None = None, grasp: str = "contact", arm_speed: str = "capped"
    ) -> None:
        if grasp not in GRASPS:
            raise ValueError(f"grasp: {grasp!r} not accepted; use one of {list(GRASPS)}")
        if arm_speed not in ARM_SPEEDS:
            raise ValueError(f"arm_speed: {arm_speed!r} not accepted; use one of {list(ARM_SPEEDS)}")
        self.depth_settings = depth or DepthSettings()
        self.grasp = grasp
        self.arm_speed = arm_speed
        self._arm_lead = np.asarray(ARM_LEADS[arm_speed])
        # an object let go under the "centre" grasp, not yet clear: (name, body, distance that clears it)
        self._leaving: tuple[str, int, float] | None = None
        self.model: mujoco.MjModel | None = None
        self.data: mujoco.MjData | None = None
        self.spec: EpisodeSpec | None = None
        self._scene_key: tuple | None = None
        self._depth: RayCastDepth | GLDepth | None = None
        self._ranges: RangeRing | None = None
        self._renderers: dict[tuple[int, int], mujoco.Renderer] = {}
        self._rules = episode_rules()
        self._paths: dict[tuple[int, float, float], GeodesicDistance] = {}  # shortest_path's fields

    # ----------------------------------------------------------------------------------- reset
    def reset(self, spec: EpisodeSpec) -> None:
        """Load the episode's scene (compiled unless it is the scene loaded now) and set its initial state."""
        validate_episode(spec, self._rules)
        key = (spec.layout, tuple((o.handle, o.type) for o in spec.objects))
        if key != self._scene_key:
            self._load(key)
        m, d = self.model, self.data
        mujoco.mj_resetData(m, d)
        self._restore_collisions()
        d.qpos[self._base_q] = (spec.robot.x, spec.robot.y, spec.robot.yaw)
        d.ctrl[self._base_p] = d.qpos[self._base_q]
        self._was_moving = np.zeros(3, dtype=bool)
        arm = spec.robot.arm if spec.robot.arm is not None else REST_QPOS
        d.qpos[self._arm_q] = arm
        d.ctrl[self._arm_u] = arm
        for o, qa in zip(spec.objects, self._obj_q, strict=True):
            half = 0.5 * o.yaw
            d.qpos[qa : qa + 7] = (*o.pos, math.cos(half), 0.0, 0.0, math.sin(half))
        arts = spec.articulation_dict
        for name, qa in self._art_q.items():
            d.qpos[qa] = arts.get(name, 0.0)
        self.held: str | None = None
        self._leaving = None
        self.force_instant = 0.0
        self.arm_force = 0.0
        self.arm_force_peak = 0.0
        self.force_accum = 0.0
        self.unstable = False
        self.spec = spec
        mujoco.mj_forward(m, d)
        check_initial_state(m, d, spec)
        if spec.held is not None:
            self._snap_into_gripper(spec.held)

    def _load(self, key: tuple) -> None:
        layout_index, objects = key
        self.model = compile_model(layout_index, objects)  # its own: grasping edits it
        m = self.model
        self.data = mujoco.MjData(m)
        self._scene_key = key
        self._arm_q = np.array([m.jnt_qposadr[m.joint(f"robot0:{n}").id] for n in ARM_JOINTS])
        self._arm_u = np.array([m.actuator(f"act_{n}").id for n in ARM_JOINTS])
        # Joint targets are clipped to the joint ranges (unlimited roll joints: no clip).
        jr = [m.joint(f"robot0:{n}").id for n in ARM_JOINTS]
        self._arm_lo = np.array([m.jnt_range[j][0] if m.jnt_limited[j] else -np.inf for j in jr])
        self._arm_hi = np.array([m.jnt_range[j][1] if m.jnt_limited[j] else np.inf for j in jr])
        self._base_q = np.array([m.jnt_qposadr[m.joint(n).id] for n in BASE_JOINTS])
        self._base_u = np.array([m.actuator(f"act_{n}").id for n in BASE_JOINTS])
        self._base_p = np.array([m.actuator(f"act_{n}_pos").id for n in BASE_JOINTS])
        self._lead = np.array(BASE_LEAD)
        self._base_dof = np.array([m.jnt_dofadr[m.joint(n).id] for n in BASE_JOINTS])
        self._brake_time = m.dof_M0[self._base_dof] / np.array(BASE_KV)  # velocity-drive time constant
        self._dv_max = np.array(BASE_MAX_EFFORT) / np.array(BASE_KV)
        self.handles = [h for h, _ in objects]
        self._handle_index = {h: i for i, h in enumerate(self.handles)}
        self._obj_q = [m.jnt_qposadr[m.joint(f"obj:{h}").id] for h in self.handles]
        self._obj_body = np.array([m.body(f"obj:{h}").id for h in self.handles], dtype=int)
        self._art_q = {n: m.jnt_qposadr[m.joint(n).id] for n in ARTICULATIONS}
        self._grip_site = m.site("robot0:grip").id
        self._cup = m.geom("suction_cup").id
        # Graspable geom -> name of the grasp target ("obj handle", or articulation for handles).
        self._graspable: dict[int, str] = {m.geom(f"obj:{h}").id: h for h in self.handles}
        self._graspable[m.geom("fridge_handle").id] = "fridge"
        for i in range(L.NUM_DRAWERS):
            self._graspable[m.geom(f"drawer_{i}_handle").id] = f"drawer_{i}"
        self._weld = {h: m.equality(f"grasp:obj:{h}").id for h in self.handles}
        self._weld["fridge"] = m.equality("grasp:fridge_door").id
        for i in range(L.NUM_DRAWERS):
            self._weld[f"drawer_{i}"] = m.equality(f"grasp:drawer_{i}_body").id
        self._held_geoms = {name: [g] for g, name in self._graspable.items()}
        self._contype0 = m.geom_contype.copy()
        self._conaff0 = m.geom_conaffinity.copy()
        self._robot_geom = m.geom_group == GROUP_ROBOT
        self._arm_geom = self._robot_geom & _descendants_of(
            m, m.jnt_bodyid[m.joint(f"robot0:{ARM_JOINTS[0]}").id]
        )
        self._close_renderers()
        self._ranges = None
        s = self.depth_settings
        if s.mode == "raycast":
            self._depth = RayCastDepth(m, "head_depth", s.height, s.width, s.max_depth)
        elif s.mode == "gl":
            self._depth = GLDepth(m, "head_depth", s.height, s.width, s.max_depth)
        else:
            self._depth = None

    def _restore_collisions(self) -> None:
        self.model.geom_contype[:] = self._contype0
        self.model.geom_conaffinity[:] = self._conaff0

    # ------------------------------------------------------------------------------------ step
    def step(
        self, arm: np.ndarray | None = None, grip: float | None = None, base: np.ndarray | None = None
    ) -> None:
        """One 30 Hz control step: arm joint-target deltas, suction command, base velocity, 4 substeps.

        Args:
            arm: [7] in [-1, 1], times 0.0125 rad added to each arm joint's position target.
            grip: >= 0 grasps what the suction cup touches; < 0 releases. None leaves it as is.
            base: [2] (linear, angular) in [-1, 1], scaled to <= 2.5 m/s and 2.5 rad/s; None stops.
        """
        m, d = self.model, self.data
        if arm is not None:
            # Targets may lead the joints by at most the arm speed's caps (robot.ARM_LEADS): a blocked arm
            # presses with a bounded torque (kp x lead, within the effort limit) and moves away at once
            # when told to.
            q_arm = d.qpos[self._arm_q]
            target = d.ctrl[self._arm_u] + ARM_SCALE * np.clip(arm, -1.0, 1.0)
            lead = self._arm_lead
            target = np.clip(target, q_arm - lead, q_arm + lead)
            d.ctrl[self._arm_u] = np.clip(target, self._arm_lo, self._arm_hi)
        q = d.qpos[self._base_q]
        if base is not None:
            lin = float(np.clip(base[0], -1.0, 1.0)) * BASE_LIN_SPEED
            ang = float(np.clip(base[1], -1.0, 1.0)) * BASE_ANG_SPEED
            vel = np.array([lin * math.cos(q[2]), lin * math.sin(q[2]), ang])
        else:
            vel = np.zeros(3)
        d.ctrl[self._base_u] = vel
        # Moving axes: pure velocity control (servo target = where the base is). An axis that stops holds
        # the point where the velocity drive brings it to rest, so arm pushes cannot drift it.
        moving = vel != 0.0
        qd = d.qvel[self._base_dof]
        hold = np.where(self._was_moving, q + qd * self._brake_time, d.ctrl[self._base_p])
        target = np.where(moving, q, hold)
        d.ctrl[self._base_p] = q + np.clip(target - q, -self._lead, self._lead)
        self._was_moving = moving
        bad0 = bad_state_count(d)
        for _ in range(SUBSTEPS):
            # Bounded drive effort: the velocity servo's set point stays within BASE_MAX_EFFORT / kv of
            # the current velocity, so a blocked base pushes with at most that force (not kv x speed).
            qd = d.qvel[self._base_dof]
            d.ctrl[self._base_u] = qd + np.clip(vel - qd, -self._dv_max, self._dv_max)
            mujoco.mj_step(m, d)
        mujoco.mj_kinematics(m, d)  # positions of the final state (mj_step leaves them one substep behind)
        # MuJoCo resets the data itself on a huge or non-finite qpos/qvel/qacc/ctrl, with a warning whose
        # counter is what tells us (the reset state itself looks calm).
        if bad_state_count(d) > bad0 or not (np.isfinite(d.qpos).all() and np.abs(d.qvel).max() < MAX_QVEL):
            self.unstable = True
            return
        if grip is not None:
            if grip >= 0.0 and self.held is None:
                touched = self.touching_cup()
                if touched is not None:
                    self._grasp(touched)
            elif grip < 0.0 and self.held is not None:
                self.release()
        if self._leaving is not None:
            self._clear_of_gripper()
        self.force_instant, self.arm_force, self.arm_force_peak = self._robot_contact_force()
        self.force_accum += self.force_instant

    def arm_action_for_ee_step(
        self, step_world: np.ndarray, damping: float = 1e-2, from_joints: bool = True
    ) -> np.ndarray:
        """Arm action [7] in [-1, 1] that moves the EE by `step_world` (m, world frame).

        Damped least squares on the EE position Jacobian. `from_joints`: the new joint targets are the
        joints plus the step (repeated calls toward a point do not wind the targets up, but the servos'
        lag makes motion slow); otherwise the step is added to the current targets, like `arm_action`
        (full speed; the targets' lead over the joints stays bounded by the arm speed's caps in `step`).
        """
        m, d = self.model, self.data
        jacp = np.zeros((3, m.nv))
        mujoco.mj_jacSite(m, d, jacp, None, self._grip_site)
        J = jacp[:, m.jnt_dofadr[m.actuator_trnid[self._arm_u, 0]]]
        step = np.asarray(step_world, dtype=np.float64)
        dq = J.T @ np.linalg.solve(J @ J.T + damping * np.eye(3), step)
        if from_joints:
            dq += d.qpos[self._arm_q] - d.ctrl[self._arm_u]
        return np.clip(dq / ARM_SCALE, -1.0, 1.0)

    def ee_arm_action(self, delta: np.ndarray) -> np.ndarray:
        """`arm_ee_action` -> `arm_action`: a base-frame EE displacement in [-1, 1]^3 times EE_SCALE.

        HAB's ArmEEAction accumulates an EE target and solves IK for it; here the IK step of the
        displacement is added to the joint targets, which accumulate like `arm_action`'s (bounded lead).
        """
        v = np.clip(np.asarray(delta, dtype=np.float64).reshape(3), -1.0, 1.0) * EE_SCALE
        yaw = self.base_pose[2]
        c, s = math.cos(yaw), math.sin(yaw)
        return self.arm_action_for_ee_step(
            np.array([c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]]), from_joints=False
        )

    # ------------------------------------------------------------------------------- suction
    def touching_cup(self) -> str | None:
        """Name of a graspable object or handle in contact with the suction cup, if any."""
        d = self.data
        n = d.ncon
        if n == 0:
            return None
        g = d.contact.geom[:n]
        hit = np.nonzero((g[:, 0] == self._cup) | (g[:, 1] == self._cup))[0]
        for i in hit:
            other = int(g[i, 1] if g[i, 0] == self._cup else g[i, 0])
            name = self._graspable.get(other)
            if name is not None:
                return name
        return None

    def _grasp(self, name: str) -> None:
        """Switch on the weld of `name` at its current pose relative to the gripper (the "centre" grasp first
        moves an object's centre onto the gripper site, as habitat-lab's snap does, furniture or not)."""
        m, d = self.model, self.data
        if self.grasp == "centre" and name not in ARTICULATIONS:
            qa = self._obj_q[self._handle_index[name]]
            d.qpos[qa : qa + 3] = d.site_xpos[self._grip_site]
            mujoco.mj_forward(m, d)
        # grasped again before it cleared the gripper (another object let go keeps leaving)
        if self._leaving is not None and self._leaving[0] == name:
            self._leaving = None
        eq = self._weld[name]
        b1, b2 = m.eq_obj1id[eq], m.eq_obj2id[eq]
        # MuJoCo's weld joins point eq_data[3:6] (body1 frame) to point eq_data[0:3] (body2 frame), and
        # holds body2's orientation at eq_data[6:10] relative to body1. Both points are the suction cup:
        # anchored at a door's origin (on its hinge axis) the weld could never turn the door.
        cup = d.geom_xpos[self._cup]
        q1inv, q2inv = np.zeros(4), np.zeros(4)
        mujoco.mju_negQuat(q1inv, d.xquat[b1])
        mujoco.mju_negQuat(q2inv, d.xquat[b2])
        in1, in2, rel_q = np.zeros(3), np.zeros(3), np.zeros(4)
        mujoco.mju_rotVecQuat(in1, cup - d.xpos[b1], q1inv)
        mujoco.mju_rotVecQuat(in2, cup - d.xpos[b2], q2inv)
        mujoco.mju_mulQuat(rel_q, q1inv, d.xquat[b2])
        m.eq_data[eq, 0:3] = in2
        m.eq_data[eq, 3:6] = in1
        m.eq_data[eq, 6:10] = rel_q
        # Objects are held rigidly; a handle turns in the cup like a ball joint (doors rotate in the grip).
        m.eq_data[eq, 10] = 0.0 if name in ARTICULATIONS else 1.0
        d.eq_active[eq] = 1
        for g in self._held_geoms[name]:  # the held thing stops colliding with the robot
            m.geom_contype[g] = CT_HELD
            m.geom_conaffinity[g] = CT_WORLD | CT_OBJECT | CT_FLOOR
        self.held = name

    def release(self) -> None:
        if self.held is None:
            return
        self.data.eq_active[self._weld[self.held]] = 0
        if self.grasp == "centre" and self.held not in ARTICULATIONS:
            # it still overlaps the gripper: collisions wait until it is its largest size (habitat-lab: its
            # bounding box's) from the gripper site
            i = self._handle_index[self.held]
            size = 2.0 * max(object_type(self.spec.objects[i].type).size)
            self._leaving = (self.held, int(self._obj_body[i]), size)
        else:
            self._collide_with_robot(self.held)
        self.held = None

    def _collide_with_robot(self, name: str) -> None:
        for g in self._held_geoms[name]:
            self.model.geom_contype[g] = self._contype0[g]
            self.model.geom_conaffinity[g] = self._conaff0[g]

    def _clear_of_gripper(self) -> None:
        """The "centre" grasp's released object collides with the robot again once it is clear (`release`)."""
        name, body, size = self._leaving
        if np.linalg.norm(self.data.xpos[body] - self.data.site_xpos[self._grip_site]) >= size:
            self._collide_with_robot(name)
            self._leaving = None

    def _snap_into_gripper(self, handle: str) -> None:
        """Start an episode holding `handle`: move it under the suction cup, then grasp it (the "centre"
        grasp moves its centre onto the gripper site)."""
        d = self.data
        if self.grasp == "centre":
            d.qvel[:] = 0.0
            self._grasp(handle)
            return
        i = self._handle_index[handle]
        qa = self._obj_q[i]
        t = object_type(self.spec.objects[i].type)
        tip = d.site_xpos[self._grip_site]
        axis = d.site_xmat[self._grip_site].reshape(3, 3)[:, 0]
        d.qpos[qa : qa + 3] = tip + axis * (t.half_height + 0.02)
        d.qvel[:] = 0.0
        mujoco.mj_forward(self.model, d)
        # Push the object out of the cup (the cup's far side is 0.048 m from the site): an overlap would
        # be released as a 30 N kick that topples tall objects at the goal.
        cup = self.model.geom("suction_cup").id
        for _ in range(3):
            gap = min(
                mujoco.mj_geomDistance(self.model, d, cup, g, 0.1, None) for g in self._held_geoms[handle]
            )
            if gap >= 0.001:
                break
            d.qpos[qa : qa + 3] += axis * (0.002 - gap)
            mujoco.mj_forward(self.model, d)
        self._grasp(handle)

    # -------------------------------------------------------------------------------- forces
    def _robot_contact_force(self) -> tuple[float, float, float]:
        """Contact normal forces (N) between robot geoms and anything else: the sum over all of the robot's
        contacts, the sum over the arm's (shoulder to gripper: the contacts HAB's force rule can see, since
        HAB's base moves on a navmesh and never pushes on the scene), and the largest single arm contact
        (HAB's RobotForce reads the largest contact point's normal force, not a sum)."""
        d = self.data
        n = d.ncon
        if n == 0:
            return 0.0, 0.0, 0.0
        g = d.contact.geom[:n]
        rg = self._robot_geom[g]
        idx = np.nonzero(rg[:, 0] ^ rg[:, 1])[0]
        arm = self._arm_geom[g]
        total = arm_total = arm_peak = 0.0
        f = np.zeros(6)
        for i in idx:
            mujoco.mj_contactForce(self.model, d, int(i), f)
            normal = abs(f[0])
            total += normal
            if arm[i, 0] or arm[i, 1]:
                arm_total += normal
                arm_peak = max(arm_peak, normal)
        return total, arm_total, arm_peak

    # --------------------------------------------------------------------------------- state
    @property
    def base_pose(self) -> tuple[float, float, float]:
        q = self.data.qpos[self._base_q]
        return float(q[0]), float(q[1]), float(q[2])

    @property
    def base_odometry(self) -> np.ndarray:
        """[3] the base's measured velocity in its own frame: forward and left (m/s), yaw rate (rad/s)."""
        vx, vy, wz = self.data.qvel[self._base_dof]
        yaw = self.base_pose[2]
        c, s = math.cos(yaw), math.sin(yaw)
        return np.array([c * vx + s * vy, -s * vx + c * vy, wz])

    def shortest_path(self, goal_xy: np.ndarray) -> tuple[float, np.ndarray] | None:
        """(geodesic distance in m, next waypoint [2]) from the base to `goal_xy` over the free floor, the
        stand-in for habitat-sim's pathfinder (`geodesic.py`; the waypoint is where the path leaves a 0.5 m
        disc around the base); None off the reachable floor."""
        key = (self.spec.layout, round(float(goal_xy[0]), 2), round(float(goal_xy[1]), 2))
        geo = self._paths.get(key)
        if geo is None:
            if len(self._paths) >= PATH_CACHE:
                self._paths.pop(next(iter(self._paths)))
            geo = self._paths[key] = GeodesicDistance()
            geo.reset(key[0], np.asarray(goal_xy, dtype=np.float64))  # goals 1 cm apart share it
        xy = self.base_pose[:2]
        dist, waypoint = geo(xy), geo.waypoint(xy)
        return None if dist is None or waypoint is None else (dist, waypoint)

    def world_to_base(self, p: np.ndarray) -> np.ndarray:
        """World points [..., 3] to the robot base frame (origin on the floor under the base)."""
        x, y, yaw = self.base_pose
        c, s = math.cos(yaw), math.sin(yaw)
        v = np.asarray(p, dtype=np.float64) - np.array([x, y, 0.0])
        return np.stack([c * v[..., 0] + s * v[..., 1], -s * v[..., 0] + c * v[..., 1], v[..., 2]], axis=-1)

    @property
    def ee_pos_world(self) -> np.ndarray:
        return self.data.site_xpos[self._grip_site].copy()

    @property
    def cup_pos_world(self) -> np.ndarray:
        """World position of the suction cup (what must touch an object to grasp it), near the EE."""
        return self.data.geom_xpos[self._cup].copy()

    def world_to_ee(self, p: np.ndarray) -> np.ndarray:
        """World points [..., 3] to the end-effector frame."""
        R = self.data.site_xmat[self._grip_site].reshape(3, 3)
        return (np.asarray(p) - self.data.site_xpos[self._grip_site]) @ R

    @property
    def arm_qpos(self) -> np.ndarray:
        """Arm joint angles (rad); the unlimited roll joints within pi of their rest angle (`wrap_rolls`):
        a roll joint turned a whole turn reads as the pose it is, not 2 pi away from anything a policy saw."""
        return wrap_rolls(self.data.qpos[self._arm_q])

    @property
    def arm_lag(self) -> np.ndarray:
        """How far each arm joint is from its motor target (rad, joint - target; rolls within pi): the arm's
        sway and sag about where it is told to be."""
        return wrap_rolls(self.data.qpos[self._arm_q] - self.data.ctrl[self._arm_u], about=np.zeros(7))

    arm_rest = np.asarray(REST_QPOS)
    """The resting arm pose (rad; read-only)."""
    arm_rest.flags.writeable = False

    def object_pos(self, handle: str) -> np.ndarray:
        return self.data.xpos[self._obj_body[self._handle_index[handle]]].copy()

    def object_top(self, handle: str) -> np.ndarray:
        """From the object's centre to the middle of its top (world, m): its up axis times its half-height."""
        i = self._handle_index[handle]
        up = self.data.xmat[self._obj_body[i]].reshape(3, 3)[:, 2]
        return up * object_type(self.spec.objects[i].type).half_height

    def object_positions(self) -> dict[str, np.ndarray]:
        xp = self.data.xpos[self._obj_body]
        return {h: xp[i].copy() for i, h in enumerate(self.handles)}

    def articulation(self, name: str) -> float:
        return float(self.data.qpos[self._art_q[name]])

    def handle_pos(self, name: str) -> np.ndarray:
        """World position of the handle of articulation `name` (fridge, drawer_i)."""
        return self.data.site_xpos[self.model.site(f"{name}_handle").id].copy()

    # ------------------------------------------------------------------------------ rendering
    def head_depth(self) -> np.ndarray:
        """Head depth [H, W] in metres (z-depth), robot geoms excluded."""
        if self._depth is None:
            raise RuntimeError("depth.mode is 'none'; set depth.mode to 'raycast' or 'gl' to render depth")
        mujoco.mj_camlight(self.model, self.data)
        return self._depth.render(self.model, self.data)

    def base_ranges(self) -> np.ndarray:
        """[24] horizontal distances (m) from the base centre to walls and furniture (depth.RangeRing)."""
        if self._ranges is None:
            self._ranges = RangeRing(self.model)
        x, y, yaw = self.base_pose
        return self._ranges.read(self.data, x, y, yaw)

    def render_rgb(self, camera: str = "third_person", height: int = 480, width: int = 640) -> np.ndarray:
        """An RGB frame [H, W, 3] uint8 from a named camera (needs OpenGL: MUJOCO_GL=egl or osmesa)."""
        r = self._renderers.get((height, width))
        if r is None:
            r = self._renderers[(height, width)] = mujoco.Renderer(self.model, height, width)
        r.update_scene(self.data, camera=camera)
        return r.render()

    def _close_renderers(self) -> None:
        for r in self._renderers.values():
            r.close()
        self._renderers.clear()
        if isinstance(self._depth, GLDepth):
            self._depth.close()

    def close(self) -> None:
        self._close_renderers()

    # --------------------------------------------------------------------------- determinism
    def get_state(self) -> np.ndarray:
        """Full physics state (incl. active welds) as a flat array."""
        spec = mujoco.mjtState.mjSTATE_INTEGRATION
        out = np.zeros(mujoco.mj_stateSize(self.model, spec))
        mujoco.mj_getState(self.model, self.data, out, spec)
        return out


def _descendants_of(m: mujoco.MjModel, root: int) -> np.ndarray:
    """`[ngeom]` True for geoms of body `root` and of every body below it in the kinematic tree."""
    inside = np.zeros(m.nbody, bool)
    for b in range(m.nbody):  # parents come before children in MuJoCo's body order
        inside[b] = b == root or (b > 0 and inside[m.body_parentid[b]])
    return inside[m.geom_bodyid]
