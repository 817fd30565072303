"""`SkillConfig`: the fields every skill task shares (split, spaces, spawn, force rule, success/slack).

Each skill's own config (`PickConfig`, ...) adds its reward scales and thresholds; `env_config` turns a
skill config into the simulator's `EnvConfig` (observations, actions, depth, episode length).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import Any, ClassVar

from tpsrl.sim.backend import ARM_SPEEDS, GRASPS, DepthSettings
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.mujoco.objects import OBJECT_TYPES
from tpsrl.sim.sensors import SENSORS

from .splits import split_layouts

DEPTH_MAX = 512
ARM_CONTROLS = {"joint": "arm_action", "ee": "arm_ee_action"}
"""skill.arm_control -> the arm action component it selects."""
EPISODE_SOURCE_FIELDS = ("split", "start_bank", "start_bank_prob", "object_types")
"""Fields that say where a run's training episodes came from: an evaluation of its policy draws its own
(held-out layouts, the task's HAB spawns, every object type alike) unless told otherwise."""


SPAWN_RULES = ("within", "navmesh", "habitat2")
"""How the robot's start is drawn (`SkillConfig.spawn_rule`)."""

FORCE_MEASURES = ("peak", "sum")
"""What the force rule reads of the arm's contacts (`SkillConfig.force_measure`)."""


@dataclass
class SkillConfig:
    """Fields shared by all skill tasks (each skill's config sets its own defaults)."""

    LEGACY: ClassVar[dict[str, Any]] = {
        "arm_control": "joint",
        "spawn_clearance": 0.4,
        "near_furniture_prob": 0.0,
        "odometry": False,
        "path_compass": False,
        "contact": False,
        "ranges": False,
        "shift_sensor": False,
        "top_sensor": False,
        "grip_init_mean": 0.0,
        "arm_start_noise": 0.0,
        "force_measure": "sum",
        "spawn_rule": "within",
        "object_types": None,
        "grasp": "contact",
        "arm_speed": "capped",
    }
    """Fields added after runs were trained, with the value those runs had (their checkpoints lack the
    field). Subclasses add their own; `skills.registry.legacy_values` merges them down the hierarchy."""

    split: str = "train"
    """Layouts to sample: "train" (24 layouts) or "heldout" (skills.splits.HELDOUT_LAYOUTS)."""
    base_movement: bool = True
    """False removes base_velocity from the actions (TP-SRL's per-skill action space)."""
    arm_control: str = "joint"
    """Arm action: "joint" (HAB's 7 joint-target deltas, TP-SRL's skills) or "ee" (HAB's ArmEEAction: a 3-D
    end-effector displacement in the base frame, solved by the simulator's IK)."""
    depth: int = 0
    """head_depth resolution (square, ray-cast); 0: state sensors only (the CPU default)."""
    odometry: bool = False
    """Adds base_odometry (the base's measured velocity, not a HAB sensor) to the observations: what a
    memoryless (MLP) policy needs to tell a blocked base from a moving one (docs/skills.md)."""
    path_compass: bool = False
    """Adds goal_path_compass (distance and direction along the shortest path over the free floor to the
    goal, not a HAB sensor) to the observations (docs/skills.md)."""
    contact: bool = False
    """Adds arm_contact_force (log(1 + the arm's contact force in N), not a HAB sensor) to the observations:
    what tells a state-only policy that its arm brushes something. It did not lower pick's force failures
    (docs/results.md, twenty-sixth session); no shipped skill reads it."""
    ranges: bool = False
    """Adds base_ranges (horizontal distances to walls and furniture around the base at two heights, a planar
    lidar's readings, not a HAB sensor) to the observations (docs/skills.md). Pick with it, acting on its
    mean action, times out more and navigates less in NoNav; sampled, it does as well as without it, not
    better (three seeds, docs/results.md, twenty-ninth session); no shipped skill reads it."""
    shift_sensor: bool = False
    """Adds goal_receptacle_shift (the share of its opening by which the fridge door or drawer holding the
    goal has been pushed toward closed since the start, not a HAB sensor) to the observations: a state-only
    place cannot see the drawer it shoves shut (docs/skills.md)."""
    top_sensor: bool = False
    """Adds held_top (from the held object's centre to the middle of its top in the base frame: which way it
    leans and how tall it is; not a HAB sensor) to the observations (docs/skills.md)."""
    grip_init_mean: float = 0.0
    """Training only: the grip action's mean at the start of a run from scratch (`policy.init_action_mean`;
    HAB's rule stays: grip >= 0 grasps, < 0 releases). At 0 a fresh policy releases with p = 0.5 per step,
    so a pick that grasps mostly drops the object again at once, and half the pick runs settled into that
    (+2 grasp, -0.5 drop) instead of learning to hold (docs/results.md)."""
    arm_start_noise: float = 0.0
    """Episodes start with each arm joint off its rest pose by s x U(-a, a) rad (a this value, s ~ U(0, 1)
    per episode; within the joint limits); 0: at rest, as HAB's skill episodes start. Inside a HAB chain a
    skill starts where the reset-arm step left the arm, which its 50 steps of 0.0125 rad cannot always bring
    back: in Tidy House 46% of nav calls started with a joint > 0.3 rad off rest, 26% once a bug of the
    reset was fixed (docs/results.md, thirteenth session). A policy
    trained at rest reads its `joint` sensor through a normaliser fitted to the rest pose alone (the shipped
    nav's joint standard deviations: 0.02-0.14 rad), so such a start is far outside what it has seen."""
    observations: tuple[str, ...] | None = None
    """Observation names; None: the skill's HAB observations (plus head_depth when depth > 0, and the
    sensors odometry, path_compass, contact, ranges and shift_sensor add)."""
    max_steps: int = 300
    """Episode length (HAB: pick/place 300, nav 400, open/close 200)."""
    clutter: tuple[int, int] = (0, 5)
    """Inclusive range of clutter objects per episode."""
    object_types: tuple[str, ...] | None = None
    """Training only: the object types an episode's objects (target and clutter) are drawn from, each entry
    alike, so a type listed k times comes k times as often; None: every type of
    `tpsrl.sim.mujoco.objects.OBJECT_TYPES` alike (HAB's episodes draw from their whole object set). An
    episode source (`EPISODE_SOURCE_FIELDS`): evaluations and shipped skills use every type alike."""
    spawn_rule: str = "within"
    """How pick and place draw the robot's start. "within" (HAB's distance, the VER paper's habitat-lab): a
    collision-free pose within `spawn_max_dist` of the object (pick) or goal (place), any such cell alike.
    "navmesh": the same, from the cells habitat-sim's `get_random_navigable_point_near` can return: those
    the free floor connects to the one nearest the target without leaving the `spawn_max_dist` circle
    (Detour walks from the nearest polygon only through portals the circle touches), so never in a room
    whose doorway lies outside it (`skills.spawn._navmesh_disk`).
    "habitat2": Habitat 2.0's per-skill tasks, where the original TP-SRL skills (without base movement)
    were trained: the free cell nearest the target, or for a target in the fridge or an open drawer the one
    nearest the point 1.0 m / 0.8 m in front of it, then `base_noise` kept within 0.1 m of that cell, the
    next nearest cell where no pose near it is clear (`skills.spawn.sample_base_habitat2`; `spawn_max_dist`
    unused; the same goals as "within"). Open/close tasks take "within" (within `spawn_max_dist` of the
    handle) or "habitat2": Habitat 2.0's open/close tasks' region in front of the handle
    (`skills.spawn.sample_base_habitat2_articulated`; not close_drawer)."""
    spawn_max_dist: float = 2.0
    """Robot spawn within this planar distance (m) of the object/handle (HAB 2.0)."""
    base_noise: float = 0.05
    """Spawn position noise (m, HAB 0.05), applied to a collision-free pose."""
    yaw_noise: float = 0.5236
    """Spawn heading noise around facing the object (rad, HAB 0.5236; >= pi: any heading)."""
    spawn_clearance: float = 0.4
    """The robot spawns on base cells at least this far (m) from walls and furniture (Fetch's base
    radius is 0.3)."""
    near_furniture_prob: float = 0.0
    """Probability that the spawn is drawn from the cells nearer than 0.4 m to walls or furniture
    (needs spawn_clearance < 0.4): inside HAB episodes skills start where the previous one left the
    robot, mostly that near."""
    spawn_tries: int = 100
    """Resamples of a spawn before it is reported as unsatisfiable."""
    success_reward: float = 10.0
    """Reward on success (HAB 10)."""
    slack_penalty: float = 0.005
    """Per-step penalty (HAB 0.005; 0 for open/close)."""
    rest_tol: float = 0.15
    """EE within this distance (m) of the resting position counts as at rest (HAB 0.15)."""
    grip_release: float = 0.0
    """grip_action below -grip_release releases (HAB 0); see docs/skills.md on grip semantics."""
    grasp: str = "contact"
    """How suction holds an object: "contact", where the cup touched it (the object's centre 0.06-0.16 m
    beyond the cup), or "centre", habitat-lab's grasp, its centre on the gripper (`tpsrl.sim.backend.GRASPS`;
    docs/simulator.md). A place episode starts with its object held so."""
    arm_speed: str = "capped"
    """How fast the arm's joints follow full arm actions: "capped", at 0.35-0.97 of HAB's commanded 0.0125 rad
    a step (every shipped skill was trained so), or "fast", at 0.80-0.98 (wrist roll 0.35), a blocked arm
    pressing harder (`tpsrl.sim.backend.ARM_SPEEDS`; docs/simulator.md)."""
    force_measure: str = "peak"
    """Force rule: the arm's contact force it reads each step: "peak", the largest single contact's normal
    force (HAB's RobotForce: the largest contact point's), or "sum", all the arm's contacts together
    (every skill trained before 2026-12-02's thirty-third session: several links pressing at once
    counted several times)."""
    min_force: float = 20.0
    """Force rule: only force increases above this (N) count as new force (HAB RobotForce min_force)."""
    force_penalty: float = 1e-4
    """Force rule: penalty per newton of new force (HAB 1e-4); 0 for skills without the rule."""
    force_penalty_cap: float = 0.01
    """Force rule: cap on the per-step force penalty (HAB 0.01)."""
    max_accum_force: float = 1e4
    """Force rule: accumulated new force (N) that ends the episode (HAB 1e4; <= 0 disables)."""
    max_instant_force: float = 1e4
    """Force rule: instantaneous robot contact force (N) that ends the episode (HAB 1e4; <= 0 disables)."""
    force_end_penalty: float = 1.0
    """Force rule: penalty when a force limit ends the episode (HAB 1.0)."""

    def _require_non_negative(self, *names: str, hint: str = "") -> None:
        """Raises a ValueError naming the first of `names` whose value is negative (or NaN)."""
        for f in names:
            if not getattr(self, f) >= 0.0:
                raise ValueError(f"skill.{f}: {getattr(self, f)} must be >= 0{hint}")

    def __post_init__(self) -> None:
        if self.observations is not None:
            self.observations = tuple(self.observations)
        self.clutter = tuple(self.clutter)  # type: ignore[assignment]
        if self.object_types is not None:
            self.object_types = tuple(self.object_types)
            unknown = [t for t in self.object_types if t not in OBJECT_TYPES]
            if not self.object_types or unknown:
                raise ValueError(
                    f"skill.object_types: {list(self.object_types)} must list object types (repeats weight "
                    f"them); unknown {unknown}; known: {sorted(OBJECT_TYPES)}"
                )
        split_layouts(self.split)
        if self.grasp not in GRASPS:
            raise ValueError(f"skill.grasp: {self.grasp!r} not accepted; use one of {list(GRASPS)}")
        if self.arm_speed not in ARM_SPEEDS:
            raise ValueError(
                f"skill.arm_speed: {self.arm_speed!r} not accepted; use one of {list(ARM_SPEEDS)}"
            )
        if self.arm_control not in ARM_CONTROLS:
            raise ValueError(
                f"skill.arm_control: {self.arm_control!r} not accepted; use one of {list(ARM_CONTROLS)}"
            )
        if (
            isinstance(self.depth, bool)
            or not isinstance(self.depth, int)
            or not 0 <= self.depth <= DEPTH_MAX
        ):
            raise ValueError(
                f"skill.depth: {self.depth!r} not accepted; use 0 (no depth) or 1..{DEPTH_MAX}, e.g. 64"
            )
        for o in self.observations or ():
            if o not in SENSORS:
                raise ValueError(
                    f"skill.observations: unknown observation {o!r}; accepted: {sorted(SENSORS)}"
                )
        if self.observations and "head_depth" in self.observations and self.depth == 0:
            raise ValueError("skill.observations: 'head_depth' needs skill.depth > 0 (e.g. 64), got 0")
        for f in ("odometry", "path_compass"):
            if getattr(self, f) and not self.base_movement:
                raise ValueError(
                    f"skill.{f}: true needs skill.base_movement: true (a fixed base cannot use it)"
                )
        if not 0.0 <= self.arm_start_noise <= math.pi:
            raise ValueError(f"skill.arm_start_noise: {self.arm_start_noise} must be in [0, pi] (rad)")
        if self.max_steps < 1:
            raise ValueError(f"skill.max_steps: {self.max_steps} must be >= 1")
        if self.force_measure not in FORCE_MEASURES:
            raise ValueError(
                f"skill.force_measure: {self.force_measure!r} not accepted; use one of {list(FORCE_MEASURES)}"
            )
        if self.spawn_rule not in SPAWN_RULES:
            raise ValueError(
                f"skill.spawn_rule: {self.spawn_rule!r} not accepted; use one of {list(SPAWN_RULES)}"
            )
        if self.spawn_tries < 1:
            raise ValueError(f"skill.spawn_tries: {self.spawn_tries} must be >= 1")
        if self.spawn_clearance < 0.3:
            raise ValueError(
                f"skill.spawn_clearance: {self.spawn_clearance} must be >= 0.3 (Fetch's base radius, m)"
            )
        if not 0.0 <= self.near_furniture_prob <= 1.0:
            raise ValueError(f"skill.near_furniture_prob: {self.near_furniture_prob} must be in [0, 1]")
        if self.yaw_noise < 0:
            raise ValueError(f"skill.yaw_noise: {self.yaw_noise} must be >= 0 (rad; >= pi: any heading)")
        if len(self.clutter) != 2 or not 0 <= self.clutter[0] <= self.clutter[1]:
            raise ValueError(f"skill.clutter: {self.clutter} must be (min, max) with 0 <= min <= max")


@dataclass
class BankedConfig(SkillConfig):
    """A skill config that can also train from a start bank: episodes recorded where HAB chains (or the
    learned nav) left the robot (pick and place; `skills/starts.py`, `evaluation/starts.py`)."""

    LEGACY: ClassVar[dict[str, Any]] = {"start_bank": "", "start_bank_prob": 0.0}

    start_bank: str = ""
    """Training: episodes files (comma-separated) of this skill's starts where the learned nav stopped
    (`python -m skills.starts`, place) or where chains called the skill (`python -m evaluation.starts`);
    their layouts must belong to `split`. Empty: the task's HAB spawns only."""
    start_bank_prob: float = 0.0
    """Probability that an episode is drawn from start_bank instead of the task's HAB spawns."""

    def __post_init__(self) -> None:
        super().__post_init__()
        if not 0.0 <= self.start_bank_prob <= 1.0:
            raise ValueError(f"skill.start_bank_prob: {self.start_bank_prob} must be in [0, 1]")
        if self.start_bank_prob > 0 and not self.start_bank:
            raise ValueError(
                f"skill.start_bank_prob: {self.start_bank_prob} needs skill.start_bank (an episodes file "
                "written by python -m evaluation.starts or python -m skills.starts)"
            )


def acting_config(cfg: SkillConfig) -> SkillConfig:
    """`cfg` without where its training episodes came from (start banks): all a policy needs to act, so a
    shipped skill never needs its training files."""
    names = {f.name: f.default for f in fields(cfg) if f.name in EPISODE_SOURCE_FIELDS and f.name != "split"}
    return replace(cfg, **names)


def task_fields(cfg: SkillConfig) -> dict[str, Any]:
    """`cfg`'s fields but its episode sources (`EPISODE_SOURCE_FIELDS`): what rebuilds the task a policy
    was trained on, on another split and with the task's own spawns."""
    return {f.name: getattr(cfg, f.name) for f in fields(cfg) if f.name not in EPISODE_SOURCE_FIELDS}


def env_config(cfg: SkillConfig, observations: tuple[str, ...], actions: tuple[str, ...]) -> EnvConfig:
    """The simulator config of a skill: its observations (+ head_depth), actions, depth and length."""
    extra = tuple(
        name
        for name, on in (
            ("head_depth", cfg.depth),
            ("base_odometry", cfg.odometry),
            ("goal_path_compass", cfg.path_compass),
            ("arm_contact_force", cfg.contact),
            ("base_ranges", cfg.ranges),
            ("goal_receptacle_shift", cfg.shift_sensor),
            ("held_top", cfg.top_sensor),
        )
        if on
    )
    obs = cfg.observations or (observations + extra)
    depth = (
        DepthSettings(mode="raycast", height=cfg.depth, width=cfg.depth)
        if cfg.depth
        else DepthSettings("none")
    )
    arm = ARM_CONTROLS[cfg.arm_control]
    return EnvConfig(
        actions=tuple(arm if a == "arm_action" else a for a in actions),
        base_movement=cfg.base_movement,
        observations=obs,
        depth=depth,
        max_steps=cfg.max_steps,
        n_targets=1,
        grip_release=cfg.grip_release,
        grasp=cfg.grasp,
        arm_speed=cfg.arm_speed,
    )
