"""The narrow interface every simulator backend implements, and the backend registry.

The gymnasium env, the sensors and (later) the skill tasks talk to a backend only through
`SimBackend`. A habitat-sim backend will implement the same protocol as an optional extra.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

import numpy as np

from .episode import EpisodeRules, EpisodeSpec
from .symbolic import SceneState


@dataclass(frozen=True)
class DepthSettings:
    """How the head depth camera is rendered."""

    mode: str = "raycast"  # "raycast" (no OpenGL), "gl" (EGL/OSMesa), or "none"
    height: int = 64
    width: int = 64
    max_depth: float = 10.0  # metres; depth is normalised by it (HAB: 0..10 m)

    def __post_init__(self) -> None:
        if self.mode not in ("raycast", "gl", "none"):
            raise ValueError(f"depth.mode: unknown mode {self.mode!r}; accepted: 'raycast', 'gl', 'none'")
        for f in ("height", "width"):
            v = getattr(self, f)
            if not isinstance(v, int) or not 1 <= v <= 1024:
                raise ValueError(f"depth.{f}: {v!r} is not an integer in 1..1024")
        if not self.max_depth > 0:
            raise ValueError(f"depth.max_depth: {self.max_depth!r} must be > 0")


GRASPS = ("contact", "centre")
"""How the suction cup holds an object (`MujocoSim.grasp`): "contact", where the cup touched it (its centre
0.06-0.16 m beyond the cup); "centre", as habitat-lab's grasp does, with its centre moved onto the gripper
site (its orientation kept), passing through the gripper and ignoring the robot until, let go, it is its
own largest size away from the gripper (habitat-lab's rule for a released object)."""

ARM_SPEEDS = ("capped", "fast")
"""How far an arm joint's position target may lead the joint (`MujocoSim.arm_speed`), which sets how fast
a joint driven at full action moves (HAB commands 0.0125 rad a step): "capped", the lead caps every
shipped skill was trained with (the joints move at 0.35-0.97 of that rate; a blocked arm presses with a
median 114 N); "fast", six of the seven caps widened so those joints move at 0.80-0.98 of it (wrist roll
stays at 0.35; a blocked arm presses with a median 180 N). docs/simulator.md, "The arm's joints move
slower than commanded"."""


@runtime_checkable
class SimBackend(Protocol):
    """A rearrangement simulator: Fetch-like robot, 30 Hz control, suction, head depth."""

    spec: EpisodeSpec | None
    held: str | None  # handle of the held object or articulation name, if any
    force_instant: float  # robot contact force of the last step (N)
    arm_force: float  # the arm's (shoulder to gripper) share of it, summed over its contacts
    arm_force_peak: float  # the arm's largest single contact force (N): HAB's RobotForce reads this kind
    force_accum: float  # sum of force_instant since reset
    unstable: bool  # physics produced NaN or exploded; the episode must end

    def reset(self, spec: EpisodeSpec) -> None: ...
    def step(self, arm: np.ndarray | None, grip: float | None, base: np.ndarray | None) -> None: ...
    def ee_arm_action(self, delta: np.ndarray) -> np.ndarray: ...
    def rules(self) -> EpisodeRules: ...
    def sample_episode(self, rng: np.random.Generator, **kwargs: Any) -> EpisodeSpec: ...
    def scene_state(self) -> SceneState: ...
    @property
    def base_pose(self) -> tuple[float, float, float]: ...
    @property
    def base_odometry(self) -> np.ndarray: ...  # [3] forward, left (m/s), yaw rate (rad/s), base frame
    @property
    def ee_pos_world(self) -> np.ndarray: ...
    @property
    def arm_qpos(self) -> np.ndarray: ...  # [7] rad; roll joints within pi of rest (whole turns skipped)
    @property
    def arm_lag(self) -> np.ndarray: ...  # [7] rad: joint - its motor target (rolls within pi)

    arm_rest: np.ndarray  # [7] rad: the resting arm pose

    def shortest_path(self, goal_xy: np.ndarray) -> tuple[float, np.ndarray] | None: ...  # (m, waypoint)
    def world_to_base(self, p: np.ndarray) -> np.ndarray: ...
    def world_to_ee(self, p: np.ndarray) -> np.ndarray: ...
    def object_pos(self, handle: str) -> np.ndarray: ...
    def object_top(self, handle: str) -> np.ndarray: ...  # [3] m, world: centre -> middle of its top
    def articulation(self, name: str) -> float: ...
    def handle_pos(self, name: str) -> np.ndarray: ...
    def head_depth(self) -> np.ndarray: ...
    def base_ranges(self) -> np.ndarray: ...  # [24] m: walls and furniture around the base (not HAB)
    def render_rgb(self, camera: str = ..., height: int = ..., width: int = ...) -> np.ndarray: ...
    def close(self) -> None: ...


# name -> "module:attribute"; imported lazily so optional backends cost nothing when absent.
BACKENDS: dict[str, str] = {
    "mujoco": "tpsrl.sim.mujoco.backend:MujocoBackend",
}


def make_backend(name: str, **kwargs: Any) -> SimBackend:
    """Instantiate backend `name`; an unknown name lists the known ones."""
    if name not in BACKENDS:
        raise ValueError(f"backend: unknown backend {name!r}; known: {sorted(BACKENDS)}")
    module, attr = BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), attr)(**kwargs)
