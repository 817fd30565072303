"""Pick (HAB "pick"): grasp the target object and bring the arm back to rest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.task import TaskStep

from .config import BankedConfig, env_config
from .episodes import ALL_RECEPTACLES, ObjectEpisodes
from .starts import BankEpisodes, load_bank
from .terms import Detour, ForceRule, Progress, detour_progress, ee_rest_dist, force_scales

MANIPULATION_ACTIONS = ("arm_action", "grip_action", "base_velocity")


@dataclass
class PickConfig(BankedConfig):
    """Pick: HAB's reward scales and rules."""

    LEGACY: ClassVar[dict[str, Any]] = {"arm_out_penalty": 0.0, "arm_out_dist": 1.5, "detour_reward": False}
    """Values of fields added after runs were trained with them (checkpoints without the field)."""

    dist_reward: float = 2.0
    """Scale of the decrease of EE->object distance (EE->rest once holding)."""
    grasp_reward: float = 2.0
    """Reward for grasping the target."""
    wrong_grasp_penalty: float = 0.5
    """Penalty for grasping another object (ends the episode)."""
    drop_penalty: float = 0.5
    """Penalty for releasing the target (ends the episode)."""
    receptacles: tuple[str, ...] = ALL_RECEPTACLES
    """Where the target may start (open surfaces, the open fridge, the open top drawer)."""
    arm_out_penalty: float = 0.0
    """Not HAB's (0 = HAB): a penalty per step and per metre the EE is beyond rest_tol from its rest
    position while the base is more than arm_out_dist from the object, not yet holding it. From starts up
    to 8 m away the shipped pick failed on force in 27 of 60 held-out episodes, 20 of them with the arm
    out of rest while still driving (docs/results/hab/diagnostics/pick_far)."""
    arm_out_dist: float = 1.5
    """Base-object distance (m, on the floor plane) beyond which arm_out_penalty applies."""
    detour_reward: bool = False
    """Not HAB's (False = HAB): before the grasp the distance term measures EE->object plus the detour
    the base must still make (`terms.Detour`: its shortest way over the free floor, open doors and
    drawers in the way, to where the arm reaches the object, less the straight line). Where the way is
    straight it is HAB's term; where furniture or the fridge's door stands between, HAB's straight
    line charges for every step round it, this pays for them. NoNav's first pick fails mostly where the
    way bends, and no learned pick goes round the open fridge door (docs/results.md)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._require_non_negative("arm_out_penalty", "arm_out_dist")


def failure_terms(
    b: SimBackend, target: str, was_holding: bool, force: ForceRule, terms: dict[str, float]
) -> str | None:
    """Shared pick/place failures (wrong grasp, drop, force): fills `terms`, returns the cause."""
    new, over = force.step(force.read(b))
    terms["force"] = force.penalty_raw(new)
    if b.held is not None and b.held != target:
        terms["wrong_grasp"] = 1.0
        return "wrong_grasp"
    if over:
        terms["force_limit"] = 1.0
        return "force"
    if was_holding and b.held is None:
        terms["drop"] = 1.0
        return "drop"
    return None


class PickTask:
    """Pick the target object (HAB pick task)."""

    name = "pick"
    Config = PickConfig
    OBSERVATIONS = ("obj_start_sensor", "joint", "is_holding", "relative_resting_position")
    ACTIONS = MANIPULATION_ACTIONS
    failure_causes = ("force", "wrong_grasp", "drop")

    def __init__(self, config: PickConfig | None = None) -> None:
        self.config = config or PickConfig()
        c = self.config
        self.episodes: ObjectEpisodes | BankEpisodes = ObjectEpisodes(
            c, c.receptacles, ALL_RECEPTACLES, anchor="object"
        )
        if c.start_bank:
            self.episodes = BankEpisodes(
                self.episodes, load_bank(c.start_bank, c.split, "pick"), c.start_bank_prob, c.arm_start_noise
            )
        self.force = ForceRule(c)
        self.progress = Progress()
        self.detour = Detour()
        self.target = ""
        self.holding = False

    @property
    def reward_scales(self) -> Mapping[str, float]:
        c = self.config
        return {
            "dist": c.dist_reward,
            "grasp": c.grasp_reward,
            "wrong_grasp": -c.wrong_grasp_penalty,
            "drop": -c.drop_penalty,
            "success": c.success_reward,
            "slack": -c.slack_penalty,
            "arm_out": -c.arm_out_penalty,
            **force_scales(c),
        }

    def env_config(self) -> EnvConfig:
        return env_config(self.config, self.OBSERVATIONS, self.ACTIONS)

    def reset(self, backend: SimBackend, spec: EpisodeSpec) -> None:
        self.target = spec.targets[0].handle
        self.holding = backend.held == self.target
        self.progress.reset()
        self.force.reset()
        if self.config.detour_reward:
            obj = backend.object_pos(self.target)
            self.detour.reset(spec.layout, spec.articulation_dict, obj)

    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep:
        b, c = backend, self.config
        terms: dict[str, float] = {"slack": 1.0}
        failure = failure_terms(b, self.target, self.holding, self.force, terms)
        holding = b.held == self.target
        if holding and not self.holding:
            terms["grasp"] = 1.0
        self.holding = holding
        if holding:
            terms["dist"] = self.progress(ee_rest_dist(b), "rest")
        else:
            obj = b.object_pos(self.target)
            d = float(np.linalg.norm(b.ee_pos_world - obj))
            extra = self.detour(b.base_pose[:2]) if c.detour_reward else None
            terms["dist"] = detour_progress(self.progress, d, extra, "obj")
            if c.arm_out_penalty and np.hypot(*(obj[:2] - b.base_pose[:2])) > c.arm_out_dist:
                terms["arm_out"] = max(0.0, ee_rest_dist(b) - c.rest_tol)
        success = failure is None and holding and ee_rest_dist(b) < c.rest_tol
        if success:
            terms["success"] = 1.0
        info = {"force_new_accum": self.force.accum}
        return TaskStep(
            terms, terminated=success or failure is not None, success=success, failure=failure, info=info
        )
