"""What one skill sees of the HAB episode's env: its own task's spec, observations and action space.

The HAB episode runs in one `RearrangeEnv` with the full action space (arm, grip, base, stop). A skill
policy was written (scripted) or trained (learned) for its own task's env, whose episode has one target
(`spec.targets[0]`), a navigation goal (`spec.nav_goal`) or a marker (`spec.marker`). `SkillView` is that
env for one skill call: a backend whose `spec` is the call's (everything else is the live backend), the
skill task's `cfg`, `action_space` and `observation_space`, and `observe()` reading the skill's sensor list
from the live simulator exactly as its task would (`tpsrl.sim.sensors.SENSORS`). `full_action` maps the
skill's action back into the HAB env's flat action (`skills.policy.ActionLayout`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import gymnasium as gym
import numpy as np

from evaluation.grounding import GroundedCall, sim_facts
from skills.episodes import handle_anchor
from skills.policy import ActionLayout
from skills.registry import make_config, task_class
from tpsrl.sim.backend import SimBackend
from tpsrl.sim.env import EnvConfig, RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec, ObjectPlacement, Target
from tpsrl.sim.sensors import SENSORS, SensorContext, goal_joint

__all__ = ["BackendView", "SkillView", "call_spec", "full_action", "skill_env_config"]


class BackendView:
    """The live backend with another episode spec: reads and commands go to the live simulator."""

    def __init__(self, backend: SimBackend, spec: EpisodeSpec) -> None:
        self._backend = backend
        self.spec = spec

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)


def skill_env_config(skill: str, base_movement: bool, depth: int, arm_control: str = "joint") -> EnvConfig:
    """The env config (observations, actions) the skill's own task uses."""
    cfg = make_config(skill, base_movement=base_movement, depth=depth, arm_control=arm_control)
    return task_class(skill)(cfg).env_config()


def _live_objects(backend: SimBackend, spec: EpisodeSpec) -> tuple[ObjectPlacement, ...]:
    """The spec's objects at their live positions, each in the receptacle it is in now."""
    inside = {f[1]: f[2] for f in sim_facts(backend) if f[0] == "in"}
    return tuple(
        replace(
            o,
            pos=tuple(map(float, backend.object_pos(o.handle))),
            receptacle=inside.get(o.handle, o.receptacle),
        )
        for o in spec.objects
    )


def _target(spec: EpisodeSpec, handle: str, backend: SimBackend) -> Target:
    """The episode's target for `handle` (its goal), or the object's own position if it has none."""
    for t in spec.targets:
        if t.handle == handle:
            return t
    return Target(handle, tuple(map(float, backend.object_pos(handle))), None)


def _nav_goal(call: GroundedCall, spec: EpisodeSpec, backend: SimBackend) -> tuple[float, float] | None:
    if call.target_kind == "goal" and call.goal_pos is not None:
        return (float(call.goal_pos[0]), float(call.goal_pos[1]))
    if call.target_kind == "receptacle":
        p = handle_anchor(spec.layout, call.target)
        return (float(p[0]), float(p[1]))
    return None


def _articulations(
    backend: SimBackend, spec: EpisodeSpec, call: GroundedCall
) -> tuple[tuple[str, float], ...]:
    """Live states of the spec's articulations; a drawer skill sees only its own drawer among drawers."""
    names = set(spec.articulation_dict)
    if call.target_kind == "receptacle":
        names.add(call.target)
    if call.skill.endswith("_drawer"):
        names = {n for n in names if not n.startswith("drawer")} | {call.target}
    return tuple(sorted((n, float(backend.articulation(n))) for n in names))


def call_spec(spec: EpisodeSpec, call: GroundedCall, backend: SimBackend) -> EpisodeSpec:
    """The episode as the skill's own task would have set it up for this call."""
    view = replace(
        spec,
        objects=_live_objects(backend, spec),
        articulations=_articulations(backend, spec, call),
        held=backend.held if backend.held in {o.handle for o in spec.objects} else None,
        nav_goal=None,
        marker=None,
    )
    if call.target_kind == "object":
        view = replace(view, targets=(_target(spec, call.target, backend),))
    if call.skill == "place" and call.goal_pos is not None:
        view = replace(
            view, targets=(Target(call.target, tuple(call.goal_pos), _goal_receptacle(spec, call)),)
        )
    if call.skill == "nav_to_obj":
        view = replace(view, nav_goal=_nav_goal(call, spec, backend))
    if call.target_kind == "receptacle" and call.skill != "nav_to_obj":
        view = replace(view, marker=call.target)
    return view


def _goal_receptacle(spec: EpisodeSpec, call: GroundedCall) -> str | None:
    return next((t.goal_receptacle for t in spec.targets if t.handle == call.target), None)


class SkillView:
    """The env a skill policy is given for one call (see the module docstring)."""

    def __init__(self, env: RearrangeEnv, skill: str, cfg: EnvConfig, spec: EpisodeSpec) -> None:
        self.full = env
        self.skill = skill
        self.cfg = cfg
        self.backend = BackendView(env.backend, spec)
        self.layout = ActionLayout(tuple(cfg.active_actions))
        self.action_space = gym.spaces.Box(-1.0, 1.0, (self.layout.size,), dtype=np.float32)
        hw = (cfg.depth.height, cfg.depth.width)
        self.observation_space = gym.spaces.Dict(
            {
                k: gym.spaces.Box(SENSORS[k].low, SENSORS[k].high, SENSORS[k].shape(1, hw), dtype=np.float32)
                for k in cfg.observations
            }
        )
        handles = [t.handle for t in spec.targets[:1]]
        goals = np.array([t.goal for t in spec.targets[:1]], dtype=np.float64).reshape(-1, 3)
        nav = None if spec.nav_goal is None else np.asarray(spec.nav_goal)
        joint = goal_joint(spec.targets[0].goal_receptacle) if spec.targets else None
        opening = env.backend.articulation(joint) if joint else 0.0
        self._ctx = SensorContext(
            handles, goals, nav, env.cfg.depth.max_depth, 1, spec.marker, joint, opening
        )

    def observe(self) -> dict[str, np.ndarray]:
        """The skill's observations of the live simulator, as its task computes them."""
        return {k: SENSORS[k].read(self.full.backend, self._ctx) for k in self.cfg.observations}


def full_action(view: SkillView, action: np.ndarray, full: ActionLayout, held: bool) -> np.ndarray:
    """The HAB env's flat action for a skill's action.

    An `arm_ee_action` becomes the joint deltas the simulator's IK gives for it. Components the skill does
    not command: arm still (0), base still (0), grip kept as it is (grasp while
    holding, release otherwise); the skill's stop ends the skill call, never the HAB episode.
    """
    a = np.asarray(action, dtype=np.float32).reshape(-1)
    parts = {name: a[s] for name, s in view.layout.slices.items()}
    grip = float(parts["grip_action"][0]) if "grip_action" in parts else (1.0 if held else -1.0)
    arm = parts.get("arm_action")
    if "arm_ee_action" in parts:  # an end-effector-controlled skill: its IK step as joint deltas
        arm = view.backend.ee_arm_action(parts["arm_ee_action"])
    return full.make(arm=arm, grip=grip, base=parts.get("base_velocity"), stop=False)
