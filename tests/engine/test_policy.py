"""Policy: dict encoders (vector MLP, depth CNN / ResNet18-GN), recurrent state handling."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch

from tpsrl.engine.policy import ActorCritic, PolicyConfig


def space() -> gym.spaces.Dict:
    return gym.spaces.Dict({
        "head_depth": gym.spaces.Box(0.0, 1.0, (32, 32, 1), np.float32),
        "joint": gym.spaces.Box(-1.0, 1.0, (7,), np.float32),
        "is_holding": gym.spaces.Box(0.0, 1.0, (1,), np.float32),
    })  # fmt: skip


@pytest.mark.parametrize("encoder", ["cnn", "resnet18"])
def test_dict_observations_with_depth(encoder: str) -> None:
    pol = ActorCritic(space(), 3, PolicyConfig(hidden_size=16, image_encoder=encoder, image_features=32))
    b = 5
    obs = {k: torch.from_numpy(np.stack([s.sample() for _ in range(b)])) for k, s in space().spaces.items()}
    action, log_prob, value, state = pol.act(obs, torch.zeros(b, 3), torch.zeros(b, 2, 2, 16))
    assert action.shape == (b, 3) and log_prob.shape == (b,) and value.shape == (b,)
    assert state.shape == (b, 2, 2, 16) and pol.state_shape() == (2, 2, 16)
    if encoder == "resnet18":
        assert any(isinstance(m, torch.nn.GroupNorm) for m in pol.modules())


def test_recurrent_state_and_previous_action_matter() -> None:
    torch.manual_seed(0)
    pol = ActorCritic(space(), 2, PolicyConfig(hidden_size=16, image_features=16))
    obs = {k: torch.from_numpy(s.sample()[None]) for k, s in space().spaces.items()}
    zeros = pol.act(obs, torch.zeros(1, 2), torch.zeros(1, 2, 2, 16), deterministic=True)
    other = pol.act(obs, torch.ones(1, 2), torch.randn(1, 2, 2, 16), deterministic=True)
    assert not torch.allclose(zeros[2], other[2])
    again = pol.act(obs, torch.zeros(1, 2), torch.zeros(1, 2, 2, 16), deterministic=True)
    assert torch.equal(zeros[0], again[0])  # deterministic given (obs, prev action, state)


def test_log_std_is_state_independent_and_learned() -> None:
    pol = ActorCritic(space(), 4, PolicyConfig(hidden_size=8, init_log_std=-0.5))
    assert pol.log_std.requires_grad and torch.allclose(pol.log_std, torch.full((4,), -0.5))
    assert pol.entropy().item() == pytest.approx(4 * (1.4189385 - 0.5), abs=1e-5)
