"""Learned skills: `load_skill_policy(run_dir or checkpoint)` rebuilds a trained skill policy as a
`SkillPolicy` (the interface the scripted controllers share), checked against the task it is used on.

Termination inside a HAB episode follows hab-reference "Skill execution": pick ends holding with the EE
within `rest_tol` of rest; place ends released with the EE at rest; the other skills end when their stop
action is > 0. The caller also enforces a step limit.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from tpsrl.engine.checkpoint import CheckpointError, trained_env_steps
from tpsrl.engine.inference import PolicyRunner, load_policy

from .policy import ActionLayout
from .registry import TASKS, legacy_fields, make_config


class SkillCheckpointError(ValueError):
    """A checkpoint that is not a skill's, is another skill's, or does not fit the env it is run in."""


class LearnedSkill:
    """A trained skill policy behind the `SkillPolicy` interface (observations only, no privileged state)."""

    def __init__(self, runner: PolicyRunner, skill: str, config: Any, data: dict[str, Any]) -> None:
        self.runner, self.skill, self.config = runner, skill, config
        self.env_steps_trained = trained_env_steps(data)
        self.action_dim = runner.policy.action_dim
        self._stop: slice | None = None
        self._done = False

    def reset(self, env: Any) -> None:
        """Start of a skill call: clears the policy's memory and checks the env's spaces."""
        self.check_env(env)
        self.runner.reset()
        self._stop = ActionLayout.of(env).slices.get("rearrange_stop")
        self._done = False

    def check_env(self, env: Any) -> None:
        if env.action_space.shape[0] != self.action_dim:
            raise SkillCheckpointError(
                f"skill {self.skill!r}: the policy acts in {self.action_dim} dimensions but the env's action "
                f"space has {env.action_space.shape[0]} (base movement on in one and off in the other?)"
            )
        missing = [k for k in self.runner.keys if k not in env.observation_space.spaces]
        if missing:
            raise SkillCheckpointError(f"skill {self.skill!r}: the env does not observe {missing}")

    def act(self, obs: dict[str, np.ndarray], env: Any = None) -> np.ndarray:
        action = self.runner.act(obs)
        self._done = self._terminates(obs, action, env)
        return action

    def _terminates(self, obs: dict[str, np.ndarray], action: np.ndarray, env: Any) -> bool:
        tol = float(getattr(self.config, "rest_tol", 0.15))
        at_rest = (
            "relative_resting_position" in obs
            and float(np.linalg.norm(obs["relative_resting_position"])) < tol
        )
        holding = "is_holding" in obs and float(obs["is_holding"][0]) > 0.5
        if self.skill == "pick":
            return holding and at_rest
        if self.skill == "place":
            clear = float(getattr(self.config, "clear_dist", 0.0))
            # not holding, held_goal_sensor reads as obj_goal_sensor (the goal from the EE)
            goal = obs["obj_goal_sensor" if "obj_goal_sensor" in obs else "held_goal_sensor"]
            away = not clear or float(np.linalg.norm(goal[:3])) >= clear
            return not holding and at_rest and away
        return self._stop is not None and float(action[self._stop][0]) > 0.0

    def done(self) -> bool:
        return self._done


def load_skill_policy(path: str | Path, skill: str | None = None) -> LearnedSkill:
    """The skill policy of a run directory, a training checkpoint or an exported policy file.

    Raises `SkillCheckpointError` when the file is missing or unreadable, is not a skill's checkpoint, or
    is another skill's than `skill` (when given).
    """
    try:
        runner, data = load_policy(path)
    except CheckpointError as e:
        raise SkillCheckpointError(str(e)) from None
    meta = data.get("meta") or {}
    name = meta.get("skill")
    if name is None:
        raise SkillCheckpointError(f"checkpoint {path} is not a skill's (trained without skill=<name>)")
    if name not in TASKS:
        raise SkillCheckpointError(
            f"checkpoint {path} is for skill {name!r}, unknown here; known: {sorted(TASKS)}"
        )
    if skill is not None and skill != name:
        raise SkillCheckpointError(f"checkpoint {path} is for skill {name!r}, not {skill!r}")
    return LearnedSkill(runner, name, task_config(meta), data)


def task_config(meta: dict[str, Any]) -> Any:
    """The task config a skill checkpoint was trained with (its `meta`), fields it predates filled in with
    the values it was trained with (`legacy_fields`)."""
    name = meta["skill"]
    return make_config(name, **legacy_fields(name, _fields(meta.get("skill_config") or {})))


def _fields(config: dict[str, Any]) -> dict[str, Any]:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in config.items()}
