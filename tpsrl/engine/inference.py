"""Running a trained policy outside training: rebuild it from a checkpoint (which records its config and
spaces) and step it one observation at a time, keeping its memory between steps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import torch

from tpsrl.engine import checkpoint as ckpt
from tpsrl.engine.envs import OBS_KEY, space_from_dict
from tpsrl.engine.policy import ActorCritic, PolicyConfig


def single_thread_acting() -> None:
    """One intra-op torch thread for a process that acts one observation at a time (evaluations, videos).

    A batch-1 forward gains nothing from more threads, and on a busy machine they wait for each other:
    the 16x16 depth CNN took 129 ms per step with 2 threads against 1.5 ms with one (2 busy cores)."""
    torch.set_num_threads(1)


class PolicyRunner:
    """One environment's view of a policy: `reset()` at an episode start, then `act(obs)` per step."""

    def __init__(
        self,
        policy: ActorCritic,
        action_space: gym.spaces.Box,
        deterministic: bool = True,
        noise_scale: float = 1.0,
    ) -> None:
        self.policy, self.deterministic = policy.eval(), deterministic
        self.noise_scale = noise_scale
        """Sampled actions draw their noise at this multiple of the policy's std (1: the trained
        distribution; the draws are the same as `ActorCritic.act`'s, so 1 samples exactly as it does)."""
        self.low, self.high = action_space.low, action_space.high
        self.keys = list(policy.obs_keys)
        self.reset()

    def reset(self) -> None:
        """Clears the recurrent state and previous action (a new episode or skill call)."""
        self.state = torch.zeros(1, *self.policy.state_shape())
        self.prev_action = torch.zeros(1, self.policy.action_dim)

    def act(self, obs: dict[str, np.ndarray] | np.ndarray) -> np.ndarray:
        """The action for one observation (a dict, or a plain array for a Box-observation env), clipped to
        the action space."""
        if not isinstance(obs, dict):
            obs = {OBS_KEY: obs}
        missing = [k for k in self.keys if k not in obs]
        if missing:
            raise KeyError(f"observation lacks {missing}; the policy was trained on {self.keys}")
        x = {k: torch.as_tensor(np.asarray(obs[k]), dtype=torch.float32)[None] for k in self.keys}
        action, _, _, self.state = self.policy.act(x, self.prev_action, self.state, deterministic=True)
        if not self.deterministic:
            action = action + torch.randn_like(action) * (
                self.noise_scale * self.policy.log_std.detach().exp()
            )
        clipped = torch.clamp(action, torch.as_tensor(self.low), torch.as_tensor(self.high))
        self.prev_action = clipped.float()
        return clipped[0].numpy()


def load_policy(path: str | Path, device: str = "cpu") -> tuple[PolicyRunner, dict[str, Any]]:
    """Rebuilds the policy of a checkpoint (a run directory, a training checkpoint or an exported policy
    file). Returns a runner and the checkpoint's data (its `meta`, `counters`, `spaces`, ...)."""
    data = ckpt.read(path, device)
    obs_space = space_from_dict(data["spaces"]["observation"])
    action_space = space_from_dict(data["spaces"]["action"])
    policy = ActorCritic(obs_space, action_space.shape[0], PolicyConfig(**data["config"]["policy"]))
    policy.load_state_dict(data["model"])
    return PolicyRunner(policy, action_space), data
