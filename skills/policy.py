"""The skill-policy interface shared by scripted controllers and learned policies.

A skill policy is called once per control step inside a skill call: `reset(env)` at the start of the
call, then `act(obs, env)` until `done()` (the skill's own termination, hab-reference "Skill execution
inside a HAB episode") or a step limit. Scripted policies read privileged state through `env.backend`;
learned ones use only `obs`. Actions are flat vectors in `env.action_space` (whose layout depends on the
task's action components, e.g. `base_velocity` is absent with base movement off): `ActionLayout` builds
them from named parts so a controller never hard-codes offsets.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from tpsrl.sim.sensors import ACTION_SIZES


@runtime_checkable
class SkillPolicy(Protocol):
    """One skill's controller: observation (+ privileged env) in, flat action out, own termination."""

    skill: str

    def reset(self, env: Any) -> None:
        """Start of a skill call (`env` is a `RearrangeEnv`; privileged access via `env.backend`)."""
        ...

    def act(self, obs: dict[str, np.ndarray], env: Any) -> np.ndarray:
        """The flat action for `env.action_space` at this step."""
        ...

    def done(self) -> bool:
        """True once the skill's own termination condition holds."""
        ...


class ActionLayout:
    """Flat-action builder for an env's active action components (HAB order: arm, grip, base, stop)."""

    def __init__(self, components: tuple[str, ...]) -> None:
        self.slices: dict[str, slice] = {}
        start = 0
        for name in components:
            if name not in ACTION_SIZES:
                raise ValueError(f"action component {name!r} unknown; accepted: {list(ACTION_SIZES)}")
            self.slices[name] = slice(start, start + ACTION_SIZES[name])
            start += ACTION_SIZES[name]
        self.size = start

    @classmethod
    def of(cls, env: Any) -> ActionLayout:
        """The layout of `env`'s action space (from its config's active action components)."""
        layout = cls(tuple(env.cfg.active_actions))
        if layout.size != env.action_space.shape[0]:
            raise ValueError(
                f"action space of size {env.action_space.shape[0]} does not match components "
                f"{list(layout.slices)} (size {layout.size})"
            )
        return layout

    @property
    def has_base(self) -> bool:
        return "base_velocity" in self.slices

    def make(
        self,
        arm: np.ndarray | None = None,
        grip: float = -1.0,
        base: np.ndarray | None = None,
        stop: bool = False,
        arm_ee: np.ndarray | None = None,
    ) -> np.ndarray:
        """A flat action; components missing from the layout are dropped (e.g. base with base off, `arm`
        where the arm takes end-effector steps `arm_ee`)."""
        a = np.zeros(self.size, np.float32)
        parts = {
            "arm_action": arm,
            "arm_ee_action": arm_ee,
            "grip_action": np.array([grip]),
            "base_velocity": base,
            "rearrange_stop": np.array([1.0 if stop else -1.0]),
        }
        for name, s in self.slices.items():
            v = parts[name]
            if v is not None:
                a[s] = np.clip(np.asarray(v, np.float32).reshape(-1), -1.0, 1.0)
        return a
