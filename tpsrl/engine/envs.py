"""How environments enter the engine: a picklable factory returning a gymnasium env.

Contract (see docs/engine.md): observations are a `spaces.Dict` of Box spaces (a plain Box is wrapped as
`{"obs": ...}`), actions a 1-D `spaces.Box`. Episode statistics (including per-episode reward terms,
summed by the env) arrive in `info["episode_stats"]` (dict[str, float]) on the step that ends an episode.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import gymnasium as gym
import numpy as np

OBS_KEY = "obs"


class EnvFactory(Protocol):
    """Builds one environment. Called once per worker, in the worker process; must be picklable for
    the `spawn`/`forkserver` start methods (a module-level class or function)."""

    def __call__(self) -> gym.Env: ...


@dataclass(frozen=True)
class GymEnvFactory:
    """Factory for any registered gymnasium env id."""

    id: str
    kwargs: dict[str, Any] = field(default_factory=dict)

    def __call__(self) -> gym.Env:
        return gym.make(self.id, **self.kwargs)


class DictObs(gym.ObservationWrapper):
    """Wraps a Box-observation env as a Dict-observation env with the single key `obs`."""

    def __init__(self, env: gym.Env) -> None:
        super().__init__(env)
        self.observation_space = gym.spaces.Dict({OBS_KEY: env.observation_space})

    def observation(self, observation: Any) -> dict[str, np.ndarray]:
        return {OBS_KEY: observation}


class EnvContractError(ValueError):
    """The environment does not follow the engine's contract."""


def conform(env: gym.Env) -> gym.Env:
    """Checks the spaces against the contract; wraps a Box observation space as a Dict."""
    name = getattr(env.spec, "id", None) or type(env.unwrapped).__name__
    if isinstance(env.observation_space, gym.spaces.Box):
        env = DictObs(env)
    obs_space = env.observation_space
    if not isinstance(obs_space, gym.spaces.Dict):
        raise EnvContractError(
            f"env {name}: observation_space is {type(obs_space).__name__}; accepted: spaces.Dict of Box, or Box"
        )
    for key, space in obs_space.spaces.items():
        if not isinstance(space, gym.spaces.Box):
            raise EnvContractError(
                f"env {name}: observation {key!r} is {type(space).__name__}; accepted: Box"
            )
    act = env.action_space
    if not isinstance(act, gym.spaces.Box) or len(act.shape) != 1:
        raise EnvContractError(
            f"env {name}: action_space is {act}; accepted: a 1-D spaces.Box (continuous actions)"
        )
    return env


def probe_spaces(factory: EnvFactory, reset: bool = False) -> tuple[gym.spaces.Dict, gym.spaces.Box]:
    """Builds one env in this process to read its (conformed) spaces, then closes it; with `reset`, resets
    it once first (what an env reads lazily, e.g. an episodes file, fails here rather than in a worker)."""
    env = conform(factory())
    try:
        if reset:
            env.reset(seed=0)
        return env.observation_space, env.action_space  # type: ignore[return-value]
    finally:
        env.close()


def space_to_dict(space: gym.spaces.Space) -> dict[str, Any]:
    """A Box, or a Dict of Boxes, as plain data (for checkpoints): shape, dtype, low, high."""
    if isinstance(space, gym.spaces.Dict):
        return {"dict": {k: space_to_dict(s) for k, s in space.spaces.items()}}
    if not isinstance(space, gym.spaces.Box):
        raise EnvContractError(f"space {space} cannot be stored; accepted: Box or Dict of Box")
    return {
        "shape": list(space.shape),
        "dtype": str(space.dtype),
        "low": space.low.tolist(),
        "high": space.high.tolist(),
    }


def space_from_dict(data: dict[str, Any]) -> gym.spaces.Space:
    """Inverse of `space_to_dict`."""
    if "dict" in data:
        return gym.spaces.Dict({k: space_from_dict(v) for k, v in data["dict"].items()})
    dtype = np.dtype(data["dtype"])
    low = np.asarray(data["low"], dtype=dtype).reshape(data["shape"])
    high = np.asarray(data["high"], dtype=dtype).reshape(data["shape"])
    return gym.spaces.Box(low, high, tuple(data["shape"]), dtype=dtype)
