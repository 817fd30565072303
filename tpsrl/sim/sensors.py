"""HAB observations and actions: names, shapes, scales (hab-reference "Actions" / "Observations").

Each sensor is a pure function of a `SimBackend`; `SENSORS` lists them by HAB name.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .backend import SimBackend

REST_EE = np.array([0.5, 0.0, 1.0])  # resting EE position in the base frame (HAB)
ODOMETRY_SCALE = 2.5  # HAB's top base speed (m/s, rad/s): base_odometry reads within about [-1, 1]

# Flat action order (HAB): arm 7, grip 1, base 2, stop 1.
ACTIONS: dict[str, int] = {"arm_action": 7, "grip_action": 1, "base_velocity": 2, "rearrange_stop": 1}
# Optional arm control in place of arm_action (HAB's ArmEEAction): a 3-D end-effector displacement in the
# base frame, in [-1, 1], times EE_SCALE metres, turned into joint targets by the simulator's IK.
OPTIONAL_ACTIONS: dict[str, int] = {"arm_ee_action": 3}
ACTION_SIZES: dict[str, int] = {**ACTIONS, **OPTIONAL_ACTIONS}
ARM_ACTIONS = ("arm_action", "arm_ee_action")


@dataclass(frozen=True)
class Sensor:
    """One observation: `size(n_targets, depth_hw)` gives its shape; `read(backend, ctx)` its value."""

    shape: Callable[[int, tuple[int, int]], tuple[int, ...]]
    low: float
    high: float
    read: Callable[[SimBackend, SensorContext], np.ndarray]


@dataclass
class SensorContext:
    """Per-episode data sensors need: target handles, goal positions and the navigation goal."""

    targets: list[str]
    goals: np.ndarray  # [n, 3]
    nav_goal: np.ndarray | None  # [2] or None (then the first target object)
    max_depth: float
    n_targets: int
    marker: str | None = None  # articulation whose handle marker_rel_pos tracks
    goal_joint: str | None = None  # the fridge door or drawer holding the first goal (goal_receptacle_shift)
    goal_opening: float = 0.0  # its joint state when the episode (or a chain's skill call) began


def goal_joint(goal_receptacle: str | None) -> str | None:
    """The articulation (fridge door, drawer) a goal on `goal_receptacle` lies in; None on open surfaces."""
    if goal_receptacle == "fridge" or (goal_receptacle or "").startswith("drawer_"):
        return goal_receptacle
    return None


def base_to_world(base_pose: np.ndarray, p: np.ndarray) -> np.ndarray:
    """A base-frame point [3] (origin on the floor under the base centre, x ahead) in world coordinates,
    for the base at `base_pose` (x, y, yaw); `SimBackend.world_to_base` is its inverse."""
    x, y, yaw = base_pose
    c, s = math.cos(yaw), math.sin(yaw)
    return np.array([x + c * p[0] - s * p[1], y + s * p[0] + c * p[1], p[2]])


def _padded(rows: list[np.ndarray], n: int, width: int) -> np.ndarray:
    out = np.zeros((n, width), dtype=np.float32)
    for i, r in enumerate(rows[:n]):
        out[i] = r
    return out.reshape(-1)


def _polar(b: SimBackend, points: np.ndarray) -> np.ndarray:
    """(distance, -angle) of world points [n, 3] in the robot's base frame, per HAB gps-compass."""
    p = b.world_to_base(points)
    return np.stack([np.hypot(p[:, 0], p[:, 1]), -np.arctan2(p[:, 1], p[:, 0])], axis=-1)


def _targets_world(b: SimBackend, c: SensorContext) -> np.ndarray:
    return np.array([b.object_pos(h) for h in c.targets]).reshape(-1, 3)


def _depth(b: SimBackend, c: SensorContext) -> np.ndarray:
    return (b.head_depth() / c.max_depth).astype(np.float32)[..., None]


def _nav_goal_world(b: SimBackend, c: SensorContext) -> np.ndarray | None:
    """[1, 3] the navigation goal (or the first target object); None without either."""
    if c.nav_goal is not None:
        return np.array([[c.nav_goal[0], c.nav_goal[1], 0.0]])
    if c.targets:
        return _targets_world(b, c)[:1]
    return None


def _nav_goal(b: SimBackend, c: SensorContext) -> np.ndarray:
    g = _nav_goal_world(b, c)
    return np.zeros(2, dtype=np.float32) if g is None else _polar(b, g)[0].astype(np.float32)


def _path_goal_world(b: SimBackend, c: SensorContext) -> np.ndarray | None:
    """[1, 3] where the path compass leads: the navigation goal; else the first target object until the
    robot holds it, then that target's goal (place's receptacle point)."""
    if c.nav_goal is None and c.targets and b.held == c.targets[0] and len(c.goals):
        return c.goals[:1]
    return _nav_goal_world(b, c)


def _path(b: SimBackend, c: SensorContext) -> np.ndarray:
    goal = _path_goal_world(b, c)
    if goal is None:
        return np.zeros(2, dtype=np.float32)
    path = b.shortest_path(goal[0, :2])
    if path is None:  # off the reachable floor (pressed into furniture): the straight line stands in
        return _polar(b, goal)[0].astype(np.float32)
    dist, waypoint = path
    angle = _polar(b, np.array([[waypoint[0], waypoint[1], 0.0]]))[0, 1]
    return np.array([dist, angle], dtype=np.float32)


def _held_goal(b: SimBackend, c: SensorContext) -> np.ndarray:
    """Each goal in the EE frame, measured from its target object's centre while that object is held."""
    rows = b.world_to_ee(c.goals)
    if b.held in c.targets[: len(rows)]:  # one object is held at most: one goal moves
        i = c.targets.index(b.held)
        rows[i] = rows[i] - b.world_to_ee(b.object_pos(b.held))
    return _padded(list(rows), c.n_targets, 3)


def _held_top(b: SimBackend, c: SensorContext) -> np.ndarray:
    """The held target's centre -> middle of its top in the base frame (zeros while no target is held: a
    grasped handle or other object reads nothing)."""
    if b.held not in c.targets:
        return np.zeros(3, dtype=np.float32)
    centre = b.object_pos(b.held)
    top, mid = b.world_to_base(np.stack([centre + b.object_top(b.held), centre]))
    return (top - mid).astype(np.float32)


def _marker(b: SimBackend, c: SensorContext) -> np.ndarray:
    if c.marker is None:
        return np.zeros(3, dtype=np.float32)
    return b.world_to_ee(b.handle_pos(c.marker)).astype(np.float32)


def _marker_state(b: SimBackend, c: SensorContext) -> np.ndarray:
    if c.marker is None:
        return np.zeros(1, dtype=np.float32)
    return np.array([b.articulation(c.marker)], dtype=np.float32)


def pushed_shut(b: SimBackend, joint: str | None, opening: float) -> float:
    """The share of `opening` (its state at the start) by which articulation `joint` has since been pushed
    toward closed; 0 where there is none or it started closed (goal_receptacle_shift, place's shut rule)."""
    if not joint or opening <= 0:
        return 0.0
    return (opening - b.articulation(joint)) / opening


def _goal_shift(b: SimBackend, c: SensorContext) -> np.ndarray:
    return np.array([pushed_shut(b, c.goal_joint, c.goal_opening)], dtype=np.float32)


def _ee(b: SimBackend) -> np.ndarray:
    return b.world_to_base(b.ee_pos_world)


SENSORS: dict[str, Sensor] = {
    "head_depth": Sensor(lambda n, hw: (hw[0], hw[1], 1), 0.0, 1.0, _depth),
    "joint": Sensor(lambda n, hw: (7,), -math.inf, math.inf, lambda b, c: b.arm_qpos.astype(np.float32)),
    # Not a HAB sensor: the rest pose plus each joint's offset from its motor target, i.e. `joint` read as
    # if the arm's targets were the rest pose. For a skill that never moves the arm (nav) it equals
    # `joint` whenever its episode starts at rest, as in training, and keeps the arm's sway (what the base's
    # accelerations do to it) where the chain's reset-arm step left the arm elsewhere (docs/skills.md).
    "joint_sway": Sensor(
        lambda n, hw: (7,), -math.inf, math.inf, lambda b, c: (b.arm_rest + b.arm_lag).astype(np.float32)
    ),
    "is_holding": Sensor(
        lambda n, hw: (1,), 0.0, 1.0, lambda b, c: np.array([b.held is not None], dtype=np.float32)
    ),
    "ee_pos": Sensor(lambda n, hw: (3,), -math.inf, math.inf, lambda b, c: _ee(b).astype(np.float32)),
    "relative_resting_position": Sensor(
        lambda n, hw: (3,), -math.inf, math.inf, lambda b, c: (REST_EE - _ee(b)).astype(np.float32)
    ),
    "obj_start_sensor": Sensor(
        lambda n, hw: (3 * n,),
        -math.inf,
        math.inf,
        lambda b, c: _padded(list(b.world_to_ee(_targets_world(b, c))), c.n_targets, 3),
    ),
    "obj_goal_sensor": Sensor(
        lambda n, hw: (3 * n,),
        -math.inf,
        math.inf,
        lambda b, c: _padded(list(b.world_to_ee(c.goals)), c.n_targets, 3),
    ),
    # obj_goal_sensor as HAB's grasp makes it read (not a HAB name): habitat-lab's suction snaps the held
    # object's centre onto the end effector, so there the goal in the EE frame is also the goal from the
    # object. Our suction holds the object where the cup touched it, its centre 0.06-0.16 m from the EE
    # (plate to cracker box): this reads the goal from the held object's centre, rotated into the EE frame,
    # and from the EE while nothing is held (docs/skills.md).
    "held_goal_sensor": Sensor(lambda n, hw: (3 * n,), -math.inf, math.inf, _held_goal),
    "obj_start_gps_compass": Sensor(
        lambda n, hw: (2 * n,),
        -math.inf,
        math.inf,
        lambda b, c: _padded(list(_polar(b, _targets_world(b, c))), c.n_targets, 2),
    ),
    "obj_goal_gps_compass": Sensor(
        lambda n, hw: (2 * n,),
        -math.inf,
        math.inf,
        lambda b, c: _padded(list(_polar(b, c.goals)), c.n_targets, 2),
    ),
    "goal_to_agent_gps_compass": Sensor(lambda n, hw: (2,), -math.inf, math.inf, _nav_goal),
    # HAB's marker_rel_pos: the target handle in the EE frame (open/close skills without depth need it).
    "marker_rel_pos": Sensor(lambda n, hw: (3,), -math.inf, math.inf, _marker),
    # Not a HAB sensor: the base's measured velocity (forward, left, yaw rate) over its top speed. An MLP
    # skill has no memory; pressed against furniture its other observations stop changing, so its mean
    # action repeats forever. Measured speed tells "blocked" from "driving" (docs/skills.md).
    "base_odometry": Sensor(
        lambda n, hw: (3,),
        -math.inf,
        math.inf,
        lambda b, c: (b.base_odometry / ODOMETRY_SCALE).astype(np.float32),
    ),
    # Not a HAB sensor: (geodesic distance, -angle of the next waypoint) along the shortest path over the
    # free floor to the nav goal, as goal_to_agent_gps_compass gives them along the straight line. An MLP
    # nav facing its goal behind a table drives at it (no memory of having tried); docs/skills.md.
    "goal_path_compass": Sensor(lambda n, hw: (2,), -math.inf, math.inf, _path),
    # Not a HAB sensor: log(1 + the arm's contact force in N), what the skills' force rule counts (shoulder
    # to gripper). Without it a state-only policy cannot tell that its arm brushes a wall it cannot see, and
    # the shipped pick's force failures were repeated brushes, not one hit (docs/skills.md). A real Fetch
    # reads its joints' efforts; this is the simulator's ground truth for the same thing.
    "arm_contact_force": Sensor(
        lambda n, hw: (1,), 0.0, math.inf, lambda b, c: np.array([math.log1p(b.arm_force)], dtype=np.float32)
    ),
    # Not a HAB sensor: a planar lidar's readings, horizontal distances (m, up to 2) from the base centre to
    # walls and furniture, 12 directions at the base's height and 12 at the resting arm's (tpsrl.sim.mujoco.
    # depth.RangeRing). The resting arm sticks out past the base, so turning beside a wall swings it in; a
    # state-only policy cannot see the wall, and such brushes were a third of pick's force failures
    # (docs/skills.md). HAB's skills see only what their head camera sees, ahead. Measured: pick with it
    # is no better (docs/results.md, twenty-ninth session).
    "base_ranges": Sensor(lambda n, hw: (24,), 0.0, 2.0, lambda b, c: b.base_ranges().astype(np.float32)),
    # Not a HAB sensor: the share of its opening at the start by which the fridge door or drawer holding the
    # goal has since been pushed toward closed (0 for goals on open surfaces). A state-only place cannot see
    # the drawer it shoves shut with the object it carries, which leaves the goal in the air (docs/skills.md).
    "goal_receptacle_shift": Sensor(lambda n, hw: (1,), -math.inf, math.inf, _goal_shift),
    # habitat-lab's ArtJointSensorNoVel: the target articulation's joint state (rad or m). Holding the
    # handle, marker_rel_pos is constant: without depth this is how the open skills see the door.
    # Not a HAB sensor: from the held target object's centre to the middle of its top, in the base frame
    # (m; zeros while no target is held): which way the held object leans and how tall it is, what a camera
    # would show. Our suction keeps the object's start orientation against the gripper, so high goals are
    # reached with it leaning back; let go so, a tall one falls back past the tolerance, and a state-only
    # place can tell neither the lean nor the height (docs/skills.md).
    "held_top": Sensor(lambda n, hw: (3,), -math.inf, math.inf, _held_top),
    "marker_js_no_vel": Sensor(lambda n, hw: (1,), -math.inf, math.inf, _marker_state),
}
