"""Place (HAB "place"): starting with the object held, put it at its goal and return the arm to rest."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.env import EnvConfig
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.sensors import goal_joint, pushed_shut
from tpsrl.sim.task import TaskStep

from .config import BankedConfig, env_config
from .episodes import ALL_RECEPTACLES, ObjectEpisodes
from .pick import MANIPULATION_ACTIONS
from .starts import BankEpisodes, load_bank
from .terms import Detour, ForceRule, Progress, detour_progress, ee_rest_dist, force_scales

CONTROL_DT = 1.0 / 30.0
"""Seconds per env step (every backend steps its control at 30 Hz, `SimBackend`)."""


@dataclass
class PlaceConfig(BankedConfig):
    """Place: HAB's reward scales and rules, with a gentle release and a settled object (docs/skills.md)."""

    LEGACY: ClassVar[dict[str, Any]] = {
        "release_speed": 0.0,
        "settle_speed": 0.0,
        "settled_away": False,
        "clear_dist": 0.0,
        "place_margin": 0.0,
        "detour_reward": False,
        "shut_tol": 0.0,
    }
    """Values of fields added after runs were trained with them (checkpoints without the field)."""

    dist_reward: float = 2.0
    """Scale of the decrease of object->goal distance while >= goal_tol - place_margin (then EE->rest once
    placed)."""
    place_reward: float = 5.0
    """Reward for releasing the object within goal_tol of its goal."""
    drop_penalty: float = 0.5
    """Penalty for releasing the object away from its goal (ends the episode)."""
    wrong_grasp_penalty: float = 0.5
    """Penalty for grasping another object (ends the episode)."""
    goal_tol: float = 0.15
    """Object within this distance (m) of its goal counts as placed (HAB 0.15)."""
    place_margin: float = 0.0
    """The object->goal reward keeps counting decreases while the object is held until it is this much
    (m) inside goal_tol (0: until goal_tol, HAB's). Training shaping only; the success rule is unchanged.
    Under HAB's reward the shipped no-base place brought the object only just inside goal_tol (at best
    0.12 m from the goal, median over its held-out successes); in 20 of its 26 held-out timeouts the object
    had been within goal_tol and, in the three traced, was let go of 0.11-0.14 m from the goal and then
    slid or fell away (docs/results.md, twenty-fourth session)."""
    release_speed: float = 0.5
    """A release within goal_tol while the object moves faster than this (m/s) is a throw: no place reward,
    the drop penalty, and the episode ends (cause "thrown"). 0: no limit (HAB's rule). Without it the
    policy learned to release while sweeping past the goal (median 0.3 m/s, a third of its successes
    above 1 m/s): the object slid on and, inside HAB chains, off its support to the floor."""
    settle_speed: float = 0.05
    """Success also needs the object slower than this (m/s), resting where it was put; an object that
    leaves 2 x goal_tol of its goal after a release ends the episode (cause "moved_off", drop penalty).
    0: HAB's rule (success the step the EE reaches rest, the object possibly still sliding)."""
    settled_away: bool = False
    """Off by default (the shipped place's recipe). With settle_speed > 0: an object released within
    goal_tol that comes to rest (slower than settle_speed over a free step) at goal_tol or more from its
    goal ends the episode (cause "settled_away"), and that and "moved_off" cost the drop penalty and take
    back the place reward.
    Without it such an episode ran on to its timeout with the place reward kept: 14 of the shipped
    place's 34 held-out timeouts (200 episodes) had let go within goal_tol, then the object slid or was
    pushed 0.16-0.29 m from its goal. A fine-tune under it halved those timeouts but released away more:
    held-out 74.5% against 73.5%, Set Table 21% against 31% (docs/results.md, eighteenth session)."""
    clear_dist: float = 0.0
    """Success also needs the end effector at least this far (m) from the place goal (so from the object
    set there), and the EE->rest reward after the release counts the shortfall as distance still to go;
    inside chains a place call ends likewise (`skills.learned`: the goal sensor's norm, as the policy sees
    it). 0: no such rule (HAB's).
    Inside HAB chains place ended with the resting gripper within 0.1 m of the object it had just set on
    a counter, and the nav that followed dragged it to the floor whichever way the base moved (backing out
    straight knocked 18 of 96 such starts, turning 23-28; docs/results.md, twenty-third session)."""
    detour_reward: bool = False
    """Not HAB's (False = HAB): while the object is held the distance term measures object->goal plus the
    detour the base must still make to the goal (`terms.Detour`, as pick's `detour_reward`). Where a wall
    or furniture stands between the start and the goal (HAB spawns within 2 m in a straight line, through
    walls), HAB's straight line charges for every step round it: the shipped place placed 90.2% of the
    held-out episodes whose way is straight, 70.8% of those with a detour of 0.25-1 m and 39.4% of those
    with 1 m or more (800 episodes; docs/results/hab/diagnostics/place_depth/detours.py). Trained with it
    from the shipped place (1.2M steps, a sixth of the episodes detoured) it gained nothing there or
    overall (84.25% of the 800 either way; docs/results.md, forty-fourth session)."""
    goal_receptacles: tuple[str, ...] = ALL_RECEPTACLES
    """Where the goal may be (open surfaces, the open fridge, the open top drawer)."""
    shut_tol: float = 0.0
    """Not HAB's (0 = off, HAB's rule): where the goal is inside the fridge or a drawer, the episode ends
    (cause "shut", the drop penalty) once that door or drawer has been pushed this fraction of its opening
    at the start toward closed. The goal stays where the open receptacle held it, so a shut one leaves it
    in the air. Without it the shipped place pushed the drawer shut with the object it carried in 9 of
    its 15 failures over 100 held-out drawer goals and the fridge door shut in 13 of 48 over 100 fridge
    goals, releasing at the goal where the object then fell (the place reward kept, the drop penalty
    paid: a net gain; docs/results.md, forty-ninth session)."""

    def __post_init__(self) -> None:
        super().__post_init__()
        self._require_non_negative("release_speed", "settle_speed", "clear_dist", hint=" (0: no limit)")
        if not 0.0 <= self.shut_tol < 1.0:
            raise ValueError(f"skill.shut_tol: {self.shut_tol} must be in [0, 1) (0: off, HAB's rule)")
        if not 0.0 <= self.place_margin < self.goal_tol:
            raise ValueError(
                f"skill.place_margin: {self.place_margin} must be in [0, goal_tol = {self.goal_tol}) (0: HAB's reward)"
            )
        if not isinstance(self.settled_away, bool):
            raise ValueError(f"skill.settled_away: {self.settled_away!r} must be true or false")


class PlaceTask:
    """Place the held object at its goal (HAB place task)."""

    name = "place"
    Config = PlaceConfig
    OBSERVATIONS = ("obj_goal_sensor", "joint", "is_holding", "relative_resting_position")
    ACTIONS = MANIPULATION_ACTIONS
    failure_causes = ("force", "wrong_grasp", "release_away", "thrown", "moved_off", "settled_away", "shut")

    def __init__(self, config: PlaceConfig | None = None) -> None:
        self.config = config or PlaceConfig()
        c = self.config
        self.episodes: ObjectEpisodes | BankEpisodes = ObjectEpisodes(
            c, ALL_RECEPTACLES, c.goal_receptacles, anchor="goal", hold_prob=1.0
        )
        if c.start_bank:
            self.episodes = BankEpisodes(
                self.episodes, load_bank(c.start_bank, c.split, "place"), c.start_bank_prob, c.arm_start_noise
            )
        self.force = ForceRule(c)
        self.progress = Progress()
        self.detour = Detour()
        self.target = ""
        self.goal = np.zeros(3)
        self.holding = True
        self.placed = False
        self.last_pos = np.zeros(3)
        self.shut_joint, self.opening = "", 0.0

    @property
    def reward_scales(self) -> Mapping[str, float]:
        c = self.config
        return {
            "dist": c.dist_reward,
            "place": c.place_reward,
            "drop": -c.drop_penalty,
            "wrong_grasp": -c.wrong_grasp_penalty,
            "success": c.success_reward,
            "slack": -c.slack_penalty,
            **force_scales(c),
        }

    def env_config(self) -> EnvConfig:
        return env_config(self.config, self.OBSERVATIONS, self.ACTIONS)

    def reset(self, backend: SimBackend, spec: EpisodeSpec) -> None:
        self.target = spec.targets[0].handle
        self.goal = np.array(spec.targets[0].goal)
        self.holding = backend.held == self.target
        self.placed = False
        self.last_pos = backend.object_pos(self.target)
        # the fridge door or drawer that holds the goal (as goal_receptacle_shift reads it), and how far it is open
        self.shut_joint = goal_joint(spec.targets[0].goal_receptacle) or ""
        self.opening = backend.articulation(self.shut_joint) if self.shut_joint else 0.0
        self.progress.reset()
        self.force.reset()
        if self.config.detour_reward:
            self.detour.reset(spec.layout, spec.articulation_dict, self.goal)

    def step(self, backend: SimBackend, action: dict[str, np.ndarray]) -> TaskStep:
        b, c = backend, self.config
        terms: dict[str, float] = {"slack": 1.0}
        new, over = self.force.step(self.force.read(b))
        terms["force"] = self.force.penalty_raw(new)
        failure = None
        pos = b.object_pos(self.target)
        dist = float(np.linalg.norm(pos - self.goal))
        speed = float(np.linalg.norm(pos - self.last_pos)) / CONTROL_DT
        self.last_pos = pos
        holding, was_holding = b.held == self.target, self.holding
        if b.held is not None and not holding:
            terms["wrong_grasp"], failure = 1.0, "wrong_grasp"
        elif over:
            terms["force_limit"], failure = 1.0, "force"
        elif self._shut(b):
            terms["drop"], failure = 1.0, "shut"
        elif was_holding and not holding:
            if dist >= c.goal_tol:
                terms["drop"], failure = 1.0, "release_away"
            elif c.release_speed and speed > c.release_speed:
                terms["drop"], failure = 1.0, "thrown"
            elif not self.placed:
                terms["place"], self.placed = 1.0, True
        elif c.settle_speed and self.placed and not holding:
            if dist >= 2 * c.goal_tol:
                failure = "moved_off"
            elif c.settled_away and not was_holding and dist >= c.goal_tol and speed < c.settle_speed:
                failure = "settled_away"
            if failure is not None:
                terms["drop"] = 1.0
                if c.settled_away:
                    terms["place"] = -1.0  # the place reward taken back: the object is not where it was put
        self.holding = holding
        ee_goal = float(np.linalg.norm(b.ee_pos_world - self.goal))
        # clear_dist: how much nearer than that the end effector is to the goal (0 without the rule)
        shortfall = max(0.0, c.clear_dist - ee_goal) if c.clear_dist else 0.0
        if holding:
            extra = self.detour(b.base_pose[:2]) if c.detour_reward else None
            gain = detour_progress(self.progress, dist, extra, "obj")
            terms["dist"] = gain if dist >= c.goal_tol - c.place_margin else 0.0
        else:
            terms["dist"] = self.progress(ee_rest_dist(b) + shortfall, "rest")
        # at rest: slow over a whole step in which it was free (a release takes effect at the step's end)
        settled = not c.settle_speed or (speed < c.settle_speed and not was_holding)
        success = (
            failure is None
            and not holding
            and dist < c.goal_tol
            and ee_rest_dist(b) < c.rest_tol
            and settled
            and not shortfall
        )
        if success:
            terms["success"] = 1.0
        info = {"force_new_accum": self.force.accum, "ee_goal_dist": ee_goal}
        return TaskStep(
            terms, terminated=success or failure is not None, success=success, failure=failure, info=info
        )

    def _shut(self, b: SimBackend) -> bool:
        """`shut_tol`'s rule: the goal's door or drawer pushed that share of its opening toward closed."""
        tol = self.config.shut_tol
        return bool(tol) and pushed_shut(b, self.shut_joint, self.opening) > tol
