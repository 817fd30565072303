"""Skill envs for the scripted controllers, the skill bench and skill videos.

`make_skill_env(skill, ...)` uses the skill tasks' registry (`skills.registry.make_env`) when it exists,
and until then a stand-in: `RearrangeEnv` with episodes sampled here in the HAB spawn spirit and the
HAB success rule evaluated here (`StandIn`). `rollout` runs one skill call and reports its success.
"""

from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from skills.policy import SkillPolicy
from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig, RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.episodes import OPEN_SURFACES, free_pose
from tpsrl.sim.task import TaskStep

SKILLS = ("nav_to_obj", "pick", "place", "open_fridge", "close_fridge", "open_drawer", "close_drawer")
MAX_STEPS = {"nav_to_obj": 400, "pick": 300, "place": 300} | {s: 200 for s in SKILLS[3:]}
HELDOUT = (3, 7, 11, 15, 19, 23, 27, 31)  # as skills.splits.HELDOUT_LAYOUTS (used only by the stand-in)


def make_skill_env(
    skill: str, split: str = "train", depth: int = 0, base_movement: bool = True
) -> RearrangeEnv:
    """The training env of `skill` (registry when present, else the stand-in)."""
    if skill not in SKILLS:
        raise ValueError(f"skill: unknown skill {skill!r}; accepted: {list(SKILLS)}")
    try:
        registry = importlib.import_module("skills.registry")
    except ModuleNotFoundError:
        registry = None
    if registry is not None and hasattr(registry, "make_env"):
        return registry.make_env(skill, split=split, depth=depth, base_movement=base_movement)
    return _stand_in_env(skill, split, depth, base_movement)


@dataclass
class Outcome:
    """One skill call: success, steps, return, whether the policy declared itself done."""

    success: bool
    steps: int
    ret: float
    policy_done: bool
    layout: int
    info: dict[str, float]


def rollout(env: RearrangeEnv, policy: SkillPolicy, seed: int, frame_fn: Any = None) -> Outcome:
    """Reset `env` with `seed`, run `policy` until the episode ends; `frame_fn(env, obs, t, ret, ok)`
    is called after each step (videos)."""
    obs, info0 = env.reset(seed=seed)
    policy.reset(env)
    ret, t, done_at = 0.0, 0, -1
    stand_in = isinstance(env.task, StandIn)
    ok = False
    while True:
        a = policy.act(obs, env)
        obs, rew, term, trunc, info = env.step(a)
        t += 1
        ret += rew
        if policy.done() and done_at < 0:
            done_at = t
        ok = env.task.success(env) if stand_in else bool(info.get("success", ok))
        if frame_fn is not None:
            frame_fn(env, obs, t, ret, ok)
        if term or trunc or (stand_in and done_at > 0):
            stats = info.get("episode_stats", {})
            success = ok if stand_in else bool(stats.get("success", ok))
            return Outcome(success, t, ret, done_at > 0, int(info0.get("layout", -1)), stats)


# ---------------------------------------------------------------------------- stand-in tasks
class StandIn:
    """Episodes and the HAB success rule of one skill (tpsrl.sim.task.Task protocol, no reward), for
    use before the skill tasks exist."""

    failure_causes: tuple[str, ...] = ()
    reward_scales: dict[str, float] = {}

    def __init__(self, skill: str, cfg: EnvConfig, layouts: tuple[int, ...]) -> None:
        self.name = f"stand_in_{skill}"
        self.skill = skill
        self.cfg = cfg
        self.layouts = layouts
        self.episodes = self
        self._stopped = False

    def env_config(self) -> EnvConfig:
        return self.cfg

    def sample(self, backend: Any, rng: np.random.Generator) -> EpisodeSpec:
        return _SPAWNS[self.skill](backend, rng, int(rng.choice(self.layouts)))

    def reset(self, backend: Any, spec: EpisodeSpec) -> None:
        self._stopped = False

    def step(self, backend: Any, action: dict[str, np.ndarray]) -> TaskStep:
        stop = action.get("rearrange_stop")
        self._stopped = stop is not None and float(stop[0]) > 0.0
        return TaskStep()

    def success(self, env: RearrangeEnv) -> bool:
        return _success(self.skill, env.backend, self._stopped)


def _stand_in_env(skill: str, split: str, depth: int, base_movement: bool) -> RearrangeEnv:
    layouts = HELDOUT if split == "heldout" else tuple(i for i in range(L.NUM_LAYOUTS) if i not in HELDOUT)
    obs = ("joint", "is_holding", "relative_resting_position", "ee_pos") + (("head_depth",) if depth else ())
    cfg = EnvConfig(
        base_movement=base_movement,
        observations=obs,
        depth=DepthSettings("raycast", depth, depth) if depth else DepthSettings("none"),
        max_steps=MAX_STEPS[skill],
    )
    return RearrangeEnv(cfg, task=StandIn(skill, cfg, layouts))  # type: ignore[arg-type]


def _rest_ok(b: Any) -> bool:
    from tpsrl.sim.sensors import REST_EE

    return float(np.linalg.norm(REST_EE - b.world_to_base(b.ee_pos_world))) < 0.15


def _success(skill: str, b: Any, stopped: bool) -> bool:
    spec = b.spec
    if skill == "pick":
        return b.held == spec.targets[0].handle and _rest_ok(b)
    if skill == "place":
        err = float(np.linalg.norm(b.object_pos(spec.targets[0].handle) - np.array(spec.targets[0].goal)))
        return b.held is None and err < 0.15 and _rest_ok(b)
    if skill == "nav_to_obj":
        g = b.object_pos(spec.targets[0].handle)
        x, y, yaw = b.base_pose
        err = (math.atan2(g[1] - y, g[0] - x) - yaw + math.pi) % (2 * math.pi) - math.pi
        return stopped and math.hypot(g[0] - x, g[1] - y) < 1.5 and abs(err) < 0.2618
    name = "fridge" if "fridge" in skill else max(spec.articulation_dict, key=spec.articulation_dict.get)
    q = b.articulation(name)
    if skill.startswith("open"):
        ok = q > (1.2208 if name == "fridge" else 0.45) - 0.05
    else:
        ok = abs(q) < 0.05
    return ok and stopped and b.held is None and _rest_ok(b)


def _near(rng: np.random.Generator, spec: EpisodeSpec, anchor: tuple[float, float, float]) -> EpisodeSpec:
    x, y, yaw = free_pose(rng, spec.layout, anchor, 2.0)
    return replace(spec, robot=replace(spec.robot, x=x, y=y, yaw=yaw))


def _pick(b: Any, rng: np.random.Generator, layout: int) -> EpisodeSpec:
    return b.sample_episode(rng, layout=layout, n_clutter=(0, 5), robot_near="target")


def _place(b: Any, rng: np.random.Generator, layout: int) -> EpisodeSpec:
    spec = b.sample_episode(rng, layout=layout, n_clutter=(0, 5), robot_near="goal")
    return replace(spec, held=spec.targets[0].handle)


def _nav(b: Any, rng: np.random.Generator, layout: int) -> EpisodeSpec:
    spec = b.sample_episode(rng, layout=layout, n_clutter=(0, 5))
    return replace(spec, held=spec.targets[0].handle) if rng.random() < 0.167 else spec


def _articulated(kind: str, opening: bool) -> Any:
    def spawn(b: Any, rng: np.random.Generator, layout: int) -> EpisodeSpec:
        name = "fridge" if kind == "fridge" else f"drawer_{int(rng.integers(L.NUM_DRAWERS))}"
        if opening:
            q = 0.0
        elif kind == "fridge":
            q = float(rng.uniform(math.pi / 4, 2.0))  # HAB: up to 2 pi / 3; our door stops at 2.0 rad
        else:
            q = float(rng.uniform(0.4, 0.5))
        spec = b.sample_episode(rng, layout=layout, n_clutter=(0, 3), articulations={name: q})
        f = L.make_layout(layout).get("fridge" if kind == "fridge" else "kitchen_cabinet")
        return _near(rng, spec, (*f.to_world(f.spec.depth / 2, 0.0), 0.0))

    return spawn


_SPAWNS = {
    "pick": _pick,
    "place": _place,
    "nav_to_obj": _nav,
    "open_fridge": _articulated("fridge", True),
    "close_fridge": _articulated("fridge", False),
    "open_drawer": _articulated("drawer", True),
    "close_drawer": _articulated("drawer", False),
}
assert set(_SPAWNS) == set(SKILLS) and set(OPEN_SURFACES)
