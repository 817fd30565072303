"""Navigate to an object (HAB "nav_to_obj"): stop within 1.5 m of it, facing it."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco.geodesic import GeodesicDistance
from tpsrl.sim.task import TaskStep

from .config import BankedConfig, env_config
from .episodes import ALL_RECEPTACLES, ObjectEpisodes
from .starts import BankEpisodes, load_bank
from .terms import Progress, heading_error


@dataclass
class NavConfig(BankedConfig):
    """Navigate to an object: HAB's reward scales and rules."""

    LEGACY: ClassVar[dict[str, Any]] = {
        "geodesic": False,
        "success_geodesic": False,
        "knock_dist": 0.0,
        "knock_penalty": 0.0,
    }
    """Values of fields added after runs were trained with them (checkpoints without the field)."""

    max_steps: int = 400
    """Episode length (HAB 400)."""
    spawn_max_dist: float = 100.0
    """Nav spawns anywhere at least min_start_dist away (no upper bound)."""
    min_start_dist: float = 3.0
    """Robot starts at least this far (planar, m) from its goal (HAB 3.0)."""
    yaw_noise: float = math.pi
    """Any start heading (habitat-lab's nav start: a random navigable point, heading U(0, 2 pi)); runs
    before this default faced the goal +- 0.5236 rad."""
    spawn_clearance: float = 0.32
    """Starts as close as 0.32 m to furniture (the navmesh admits Fetch's 0.3 m base)."""
    near_furniture_prob: float = 0.5
    """Half the starts nearer than 0.4 m to walls or furniture: in HAB episodes nav starts where pick,
    place or open left the robot (43 of 68 nav calls in 20 traced Tidy House episodes)."""
    hold_prob: float = 0.167
    """Probability of starting with the target held; the goal is then the object's goal (HAB 0.167)."""
    dist_reward: float = 1.0
    """Scale of the decrease of the distance to the goal."""
    geodesic: bool = True
    """Distance of the dense reward and of the turn-reward radius: the shortest path over the free floor
    (habitat-lab's DistToGoal, `tpsrl.sim.mujoco.geodesic`); False: the straight line (planar), what nav runs
    before this field used. Success is judged on the planar distance either way."""
    angle_reward: float = 1.0
    """Scale of the decrease of the heading error, within angle_radius of the goal."""
    angle_radius: float = 3.0
    """Heading reward applies within this distance (m) of the goal (HAB 3.0)."""
    success_dist: float = 1.5
    """Success: base within this planar distance (m) of the goal (HAB 1.5)."""
    success_geodesic: bool = False
    """Success also needs the geodesic distance (over the free floor, to the goal snapped to it) within
    success_dist. With the planar distance alone a nav may stop across a table or a counter from a goal
    it cannot reach from there: in the HAB chain place then timed out (docs/results.md, tenth session)."""
    success_angle: float = 0.2618
    """Success: facing the goal within this angle (rad, HAB 15 deg)."""
    force_penalty: float = 0.0
    """Nav has no force rule in HAB."""
    max_accum_force: float = 0.0
    """Nav has no force rule in HAB (0 disables)."""
    max_instant_force: float = 0.0
    """Nav has no force rule in HAB (0 disables)."""
    knock_dist: float = 0.0
    """An object (not held) that moves this far (m) from where it lay when the episode began ends the
    episode (cause "knocked", the knock penalty; no success). 0: no such rule (HAB's nav has none, and
    every nav before 2026-11-28). Inside HAB chains the learned nav, starting where place had just set an
    object down beside its resting gripper, turned in place and swept it off (the first failure of 34 of
    100 Tidy House episodes; docs/results.md, twenty-third session)."""
    knock_penalty: float = 0.0
    """Penalty when an object is knocked (knock_dist)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._require_non_negative("knock_dist", "knock_penalty")


class NavToObjTask:
    """Navigate to the target object (or to its goal when holding it)."""

    name = "nav_to_obj"
    Config = NavConfig
    OBSERVATIONS = ("goal_to_agent_gps_compass", "joint")
    ACTIONS = ("base_velocity", "rearrange_stop")
    failure_causes: tuple[str, ...] = ("knocked",)

    def __init__(self, config: NavConfig | None = None) -> None:
        self.config = config or NavConfig()
        c = self.config
        if not c.base_movement:
            raise ValueError(
                "skill.base_movement: False is not accepted for nav_to_obj (the base is its only motion)"
            )
        self.episodes: ObjectEpisodes | BankEpisodes = ObjectEpisodes(
            c,
            ALL_RECEPTACLES,
            ALL_RECEPTACLES,
            anchor="nav",
            hold_prob=c.hold_prob,
            min_dist=c.min_start_dist,
            goal_radius=c.success_dist,
        )
        if c.start_bank:
            self.episodes = BankEpisodes(
                self.episodes,
                load_bank(c.start_bank, c.split, self.name),
                c.start_bank_prob,
                c.arm_start_noise,
            )
        self.lying: dict[str, np.ndarray] = {}
        self.dist, self.angle = Progress(), Progress()
        self.goal = np.zeros(2)
        self.geo = GeodesicDistance()

    @property
    def reward_scales(self) -> Mapping[str, float]:
        c = self.config
        return {
            "dist": c.dist_reward,
            "angle": c.angle_reward,
            "success": c.success_reward,
            "slack": -c.slack_penalty,
            "knock": -c.knock_penalty,
        }

    def env_config(self) -> EnvConfig:
        return env_config(self.config, self.OBSERVATIONS, self.ACTIONS)

    def reset(self, backend: SimBackend, spec: EpisodeSpec) -> None:
        goal = spec.nav_goal if spec.nav_goal is not None else backend.object_pos(spec.targets[0].handle)[:2]
        self.goal = np.array(goal[:2], dtype=np.float64)
        if self.config.geodesic or self.config.success_geodesic:
            self.geo.reset(spec.layout, self.goal)
        self.dist.reset()
        self.angle.reset()
        self.lying = {
            o.handle: backend.object_pos(o.handle) for o in spec.objects if o.handle != backend.held
        }

    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep:
        c = self.config
        x, y, _ = backend.base_pose
        d = float(np.hypot(self.goal[0] - x, self.goal[1] - y))
        err = heading_error(backend, self.goal)
        geo = self.geo((x, y)) if c.geodesic or c.success_geodesic else None
        # Off the free floor (pressed into furniture) the planar distance stands in; the change of
        # measure pays nothing (Progress keys).
        measured = d if geo is None or not c.geodesic else geo
        terms = {"slack": 1.0, "dist": self.dist(measured, key=geo is None)}
        near = measured < c.angle_radius
        terms["angle"] = self.angle(err, near) if near else self.angle(0.0, near)
        stop = float(action["rearrange_stop"][0]) > 0.0
        close = d <= c.success_dist and (not c.success_geodesic or geo is None or geo <= c.success_dist)
        success = stop and close and err <= c.success_angle
        failure = "knocked" if c.knock_dist and self._knocked(backend) else None
        if failure is not None:
            terms["knock"], success = 1.0, False
        if success:
            terms["success"] = 1.0
        return TaskStep(
            terms,
            terminated=success or failure is not None,
            success=success,
            failure=failure,
            info={"nav_dist": d, "nav_geo_dist": measured, "nav_angle": err},
        )

    def _knocked(self, backend: SimBackend) -> bool:
        """Whether an object not held has moved knock_dist or more from where it lay at the start."""
        lim = self.config.knock_dist
        return any(
            h != backend.held and float(np.linalg.norm(backend.object_pos(h) - p)) >= lim
            for h, p in self.lying.items()
        )
