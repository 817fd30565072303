"""Policy: dict encoders (vector MLP, depth CNN / ResNet18-GN), recurrent state handling."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
import torch

from tpsrl.engine.inference import PolicyRunner
from tpsrl.engine.policy import ActorCritic, PolicyConfig


def space() -> gym.spaces.Dict:
    return gym.spaces.Dict(
        {
            "head_depth": gym.spaces.Box(0.0, 1.0, (32, 32, 1), np.float32),
            "joint": gym.spaces.Box(-1.0, 1.0, (7,), np.float32),
            "is_holding": gym.spaces.Box(0.0, 1.0, (1,), np.float32),
        }
    )


@pytest.mark.parametrize("encoder", ["cnn", "resnet18", "flat"])
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


def _obs(b: int) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(np.stack([s.sample() for _ in range(b)])) for k, s in space().spaces.items()}


@pytest.mark.parametrize(("kind", "separate"), [("mlp", False), ("mlp", True), ("lstm", True)])
def test_act_and_evaluate_agree(kind: str, separate: bool) -> None:
    """The log-prob and value of a step are the same whether acted or re-evaluated in learning."""
    torch.manual_seed(0)
    cfg = PolicyConfig(kind=kind, hidden_size=8, mlp_hidden=16, image_features=8, separate_critic=separate)
    pol = ActorCritic(space(), 3, cfg)
    if kind == "mlp":
        assert pol.state_shape() == (0,) and not pol.recurrent
    else:
        assert pol.state_shape() == (4, 2, 8)  # actor's 2 layers, then the critic's
    b = 4
    obs, prev, state = _obs(b), torch.zeros(b, 3), torch.zeros(b, *pol.state_shape())
    action, log_prob, value, next_state = pol.act(obs, prev, state)
    assert next_state.shape == state.shape
    mask = torch.ones(1, b, dtype=torch.bool)
    log_prob2, value2 = pol.evaluate(obs, prev, action, mask, state)
    assert torch.allclose(log_prob, log_prob2, atol=1e-5)
    assert torch.allclose(value, value2, atol=1e-5)  # no statistics yet: normalised == raw


@pytest.mark.parametrize("separate", [False, True])
def test_evaluate_steps_equals_evaluate(separate: bool) -> None:
    """The learner's feed-forward path (observations normalised once per learning phase, then rows taken)
    gives exactly `evaluate`'s numbers, normaliser statistics present."""
    torch.manual_seed(0)
    cfg = PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, separate_critic=separate)
    pol = ActorCritic(space(), 3, cfg)
    pol.update_obs_stats(_obs(64))
    obs, actions, rows = _obs(6), torch.randn(6, 3), torch.tensor([4, 0, 5])
    b = len(rows)
    mask = torch.ones(1, b, dtype=torch.bool)
    expected = pol.evaluate(
        {k: x[rows] for k, x in obs.items()}, torch.zeros(b, 3), actions[rows], mask, torch.zeros(b, 0)
    )
    normalized = pol.normalize_obs(obs)
    got = pol.evaluate_steps({k: x[rows] for k, x in normalized.items()}, actions[rows])
    assert torch.equal(got[0], expected[0]) and torch.equal(got[1], expected[1])
    # the vector observations concatenated beforehand (the learner's table): the images alone go in obs
    vector, images = pol.vector_input(normalized), pol.actor_body.encoder.image_keys
    assert images == ["head_depth"] and vector is not None and vector.shape == (6, 8)  # joint, is_holding
    got = pol.evaluate_steps({k: normalized[k][rows] for k in images}, actions[rows], vector[rows])
    assert torch.equal(got[0], expected[0]) and torch.equal(got[1], expected[1])
    lstm = ActorCritic(space(), 3, PolicyConfig(hidden_size=8, image_features=8))
    with pytest.raises(RuntimeError, match="feed-forward"):
        lstm.evaluate_steps(normalized, actions)


def test_separate_critic_has_its_own_parameters() -> None:
    shared = ActorCritic(space(), 2, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8))
    separate = ActorCritic(
        space(), 2, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, separate_critic=True)
    )
    count = lambda m: sum(p.numel() for p in m.parameters())  # noqa: E731
    assert count(separate) > count(shared) + count(shared.actor_body) - 1
    loss = separate.evaluate(
        _obs(2), torch.zeros(2, 2), torch.zeros(2, 2), torch.ones(1, 2, dtype=torch.bool), torch.zeros(2, 0)
    )[1].sum()
    loss.backward()
    assert all(p.grad is None for p in separate.actor_body.parameters())  # the value loss leaves the actor


def test_normalisers_are_checkpointed_and_change_outputs() -> None:
    torch.manual_seed(0)
    cfg = PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8)
    pol = ActorCritic(space(), 2, cfg)
    obs = _obs(64)
    obs["joint"] = obs["joint"] * 50 + 7  # badly scaled input
    pol.update_obs_stats(obs)
    pol.update_value_stats(torch.linspace(0, 1000, 64))
    state = pol.state_dict()
    assert {"obs_norm.joint.mean", "value_norm.mean", "value_norm.var"} <= set(state)
    copy = ActorCritic(space(), 2, cfg)
    copy.load_state_dict(state)
    zeros, none = torch.zeros(4, 2), torch.zeros(4, 0)
    small = {k: x[:4] for k, x in obs.items()}
    a, b = pol.act(small, zeros, none, True), copy.act(small, zeros, none, True)
    assert torch.equal(a[0], b[0]) and torch.equal(a[2], b[2])
    fresh = ActorCritic(space(), 2, cfg)
    fresh.load_state_dict({k: v for k, v in state.items() if "norm" not in k}, strict=False)
    assert not torch.allclose(fresh.act(small, zeros, none, True)[0], a[0])  # the statistics matter
    assert pol.value_norm is not None and 400 < float(pol.value_norm.mean) < 600


def _same_draw(fn, *args) -> tuple[torch.Tensor, ...]:  # noqa: ANN001
    torch.manual_seed(7)
    with torch.inference_mode():
        return fn(*args)


@pytest.mark.parametrize(("kind", "separate"), [("lstm", False), ("mlp", False), ("lstm", True)])
def test_traced_acting_matches_eager_and_follows_in_place_updates(kind: str, separate: bool) -> None:
    """The traced acting call gives act's exact numbers from the same random stream, at other batch sizes
    than the one it was traced at, and after the updates training makes between rollouts."""
    torch.manual_seed(0)
    cfg = PolicyConfig(kind=kind, hidden_size=8, mlp_hidden=16, image_features=8, separate_critic=separate)
    pol = ActorCritic(space(), 3, cfg)
    with pytest.raises(RuntimeError, match="observation statistics"):
        pol.traced_act(_obs(3), torch.zeros(3, 3), torch.zeros(3, *pol.state_shape()))
    pol.update_obs_stats(_obs(20))
    traced = pol.traced_act(_obs(3), torch.zeros(3, 3), torch.zeros(3, *pol.state_shape()))

    def check() -> None:
        for b in (1, 7):
            args = (_obs(b), torch.randn(b, 3), torch.randn(b, *pol.state_shape()))
            eager, fast = _same_draw(pol.act, *args), _same_draw(traced, *args)
            assert all(torch.equal(x, y) for x, y in zip(eager, fast, strict=True))

    check()
    opt = torch.optim.Adam(pol.parameters(), lr=0.1)  # an optimizer step (in place)
    obs = _obs(6)
    pol.evaluate(
        obs,
        torch.zeros(6, 3),
        torch.zeros(6, 3),
        torch.ones(1, 6, dtype=torch.bool),
        torch.zeros(6, *pol.state_shape()),
    )[0].sum().backward()
    opt.step()
    pol.update_obs_stats({k: 3 * v + 1 for k, v in _obs(20).items()})  # statistics move
    pol.update_value_stats(torch.randn(50) * 40 + 10)  # PopArt rescales the critic head in place
    check()
    other = ActorCritic(space(), 3, cfg)
    other.update_obs_stats({k: v - 2 for k, v in _obs(20).items()})
    pol.load_state_dict(other.state_dict())  # a checkpoint loaded into the same modules
    check()


@pytest.mark.parametrize(("separate", "activation", "norm"), [(True, "tanh", True), (False, "relu", False)])
def test_numpy_acting_gives_the_torch_policy_numbers(separate: bool, activation: str, norm: bool) -> None:
    from tpsrl.engine.policy import NumpyActing

    obs_space = gym.spaces.Dict({k: s for k, s in space().spaces.items() if k != "head_depth"})
    torch.manual_seed(0)
    pol = ActorCritic(
        obs_space,
        3,
        PolicyConfig(
            kind="mlp",
            mlp_hidden=16,
            separate_critic=separate,
            activation=activation,
            normalize_obs=norm,
            init_log_std=-0.5,
        ),
    )
    assert not ActorCritic(space(), 3, PolicyConfig(kind="mlp")).numpy_actable()
    rng = np.random.default_rng(0)
    batch = {k: np.stack([s.sample() for _ in range(6)]) * 3 for k, s in obs_space.spaces.items()}
    t_obs = {k: torch.from_numpy(x) for k, x in batch.items()}
    pol.update_obs_stats(t_obs)  # statistics, then a PopArt update and a log-std change move the outputs
    pol.update_value_stats(torch.tensor([5.0, -3.0, 10.0]))
    with torch.no_grad():
        pol.log_std.add_(torch.tensor([0.1, -0.2, 0.3]))
    fast = NumpyActing(pol, rng)
    mean, _, value, _ = pol.act(t_obs, torch.zeros(6, 3), torch.zeros(6, 0), deterministic=True)
    a0, lp0, v0 = fast.act(batch, deterministic=True)
    np.testing.assert_allclose(a0, mean.numpy(), atol=1e-5)
    np.testing.assert_allclose(v0, value.numpy(), atol=1e-4)
    action, log_prob, value2 = fast.act(batch)  # sampled: the log-prob is the torch policy's of that action
    lp, _ = pol.evaluate(
        t_obs,
        torch.zeros(6, 3),
        torch.from_numpy(action),
        torch.ones(1, 6, dtype=torch.bool),
        torch.zeros(6, 0),
    )
    np.testing.assert_allclose(log_prob, lp.detach().numpy(), atol=1e-4)
    np.testing.assert_allclose(value2, v0)
    assert not np.allclose(action, a0)


def test_init_action_mean_sets_the_initial_mean() -> None:
    torch.manual_seed(0)
    cfg = PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, init_action_mean=[0.0, 2.0, -1.0])
    pol = ActorCritic(space(), 3, cfg)
    mean = pol.act(_obs(64), torch.zeros(64, 3), torch.zeros(64, 0), deterministic=True)[0].mean(0)
    assert torch.allclose(mean, torch.tensor([0.0, 2.0, -1.0]), atol=0.1)  # head weights start near 0
    with pytest.raises(ValueError, match=r"policy.init_action_mean=\[1.0\] has 1 values"):
        ActorCritic(
            space(), 3, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, init_action_mean=[1.0])
        )


def test_obs_stats_stop_at_their_count() -> None:
    """`update_obs_stats(obs, until)`: a sensor holding `until` samples keeps its statistics, one holding
    fewer (a sensor added to a trained policy) still gathers its own; until=0 always updates."""
    pol = ActorCritic(space(), 3, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8))
    pol.update_obs_stats(_obs(64))
    pol.obs_norm["is_holding"].count.fill_(0.0)  # as if added after the others were trained
    joint = pol.obs_norm["joint"].mean.clone()
    pol.update_obs_stats({k: 5 * v + 3 for k, v in _obs(64).items()}, until=64)
    assert torch.equal(pol.obs_norm["joint"].mean, joint) and pol.obs_norm["joint"].count == 64
    assert pol.obs_norm["is_holding"].count == 64 and pol.obs_norm["is_holding"].mean.item() > 2.0
    pol.update_obs_stats({k: 5 * v + 3 for k, v in _obs(64).items()})  # until=0: every sensor moves
    assert not torch.equal(pol.obs_norm["joint"].mean, joint) and pol.obs_norm["joint"].count == 128


def test_obs_clip_bounds_the_normalised_inputs_and_nothing_else() -> None:
    """`policy.obs_clip`: the same weights read a far observation unclipped up to the wider bound, and
    read every observation inside +-10 standard deviations exactly as at the default."""
    torch.manual_seed(0)
    narrow = ActorCritic(space(), 3, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8))
    narrow.update_obs_stats(_obs(64))
    wide = ActorCritic(space(), 3, PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, obs_clip=30.0))
    wide.load_state_dict(narrow.state_dict())
    norm, std = narrow.obs_norm["joint"], narrow.obs_norm["joint"].std
    near = {**_obs(1), "joint": (norm.mean + 5 * std)[None]}
    far = {**_obs(1), "joint": (norm.mean + 20 * std)[None]}
    assert torch.allclose(narrow.normalize_obs(near)["joint"], wide.normalize_obs(near)["joint"])
    assert torch.allclose(narrow.normalize_obs(far)["joint"], torch.full((1, 7), 10.0))
    assert torch.allclose(wide.normalize_obs(far)["joint"], torch.full((1, 7), 20.0), atol=1e-3)


def test_the_runner_samples_as_the_policy_does_and_scales_its_noise() -> None:
    """PolicyRunner's sampled actions are ActorCritic.act's draws at noise_scale 1, and at scale s lie s
    times as far from the mean."""
    obs_space = gym.spaces.Dict({k: s for k, s in space().spaces.items() if k != "head_depth"})
    torch.manual_seed(0)
    pol = ActorCritic(obs_space, 3, PolicyConfig(hidden_size=16, init_log_std=-1.0))
    box = gym.spaces.Box(-100.0, 100.0, (3,), np.float32)  # wide: no clipping
    obs = {k: s.sample().astype(np.float32) for k, s in obs_space.spaces.items()}

    def action(deterministic: bool, scale: float = 1.0) -> np.ndarray:
        runner = PolicyRunner(pol, box, deterministic=deterministic, noise_scale=scale)
        torch.manual_seed(7)
        return runner.act(obs)

    torch.manual_seed(7)
    x = {k: torch.from_numpy(v)[None] for k, v in obs.items()}
    direct = pol.act(x, torch.zeros(1, 3), torch.zeros(1, *pol.state_shape()))[0][0].numpy()
    one, half, mean = action(False), action(False, 0.5), action(True)
    assert np.array_equal(one, direct) and not np.allclose(one, mean)
    np.testing.assert_allclose(half - mean, 0.5 * (one - mean), atol=1e-6)


def _privileged_space() -> gym.spaces.Dict:
    return gym.spaces.Dict({**space().spaces, "ranges": gym.spaces.Box(0.0, 2.0, (5,), np.float32)})


def _privileged_obs(b: int) -> dict[str, torch.Tensor]:
    sp = _privileged_space().spaces
    return {k: torch.from_numpy(np.stack([s.sample() for _ in range(b)])) for k, s in sp.items()}


@pytest.mark.parametrize(("kind", "separate"), [("lstm", False), ("mlp", False), ("lstm", True)])
def test_critic_keys_reach_the_value_and_never_the_action(kind: str, separate: bool) -> None:
    """An asymmetric actor-critic: changing a critic-only observation changes the value, not the action
    (mean or log-prob) nor the actor's next state; act and evaluate still agree."""
    torch.manual_seed(0)
    cfg = PolicyConfig(
        kind=kind,
        hidden_size=8,
        mlp_hidden=16,
        image_features=8,
        separate_critic=separate,
        critic_keys=["ranges"],
    )
    pol = ActorCritic(_privileged_space(), 3, cfg)
    assert "ranges" not in pol.actor_body.encoder.vector_keys
    b = 4
    obs, prev, state = _privileged_obs(b), torch.randn(b, 3), torch.zeros(b, *pol.state_shape())
    other = {**obs, "ranges": obs["ranges"] + 1.0}
    a1, lp1, v1, s1 = pol.act(obs, prev, state, deterministic=True)
    a2, lp2, v2, s2 = pol.act(other, prev, state, deterministic=True)
    assert torch.equal(a1, a2) and torch.equal(lp1, lp2)
    assert not torch.allclose(v1, v2)
    actor_state = s1.shape[1] // 2 if separate else s1.shape[1]
    assert torch.equal(s1[:, :actor_state], s2[:, :actor_state])
    mask = torch.ones(1, b, dtype=torch.bool)
    lp3, v3 = pol.evaluate(obs, prev, a1, mask, state)
    assert torch.allclose(lp1, lp3, atol=1e-5) and torch.allclose(v1, v3, atol=1e-5)


def test_critic_keys_on_the_feed_forward_learning_path() -> None:
    """The feed-forward learner's table (actor vectors, then the critic-only ones) gives `evaluate`'s numbers."""
    torch.manual_seed(0)
    pol = ActorCritic(
        _privileged_space(),
        3,
        PolicyConfig(kind="mlp", mlp_hidden=16, image_features=8, critic_keys=["ranges"]),
    )
    pol.update_obs_stats(_privileged_obs(64))
    obs, actions = _privileged_obs(5), torch.randn(5, 3)
    expected = pol.evaluate(
        obs, torch.zeros(5, 3), actions, torch.ones(1, 5, dtype=torch.bool), torch.zeros(5, 0)
    )
    normalized = pol.normalize_obs(obs)
    vector = pol.vector_input(normalized)
    assert vector is not None and vector.shape == (5, 8 + 5)
    got = pol.evaluate_steps({"head_depth": normalized["head_depth"]}, actions, vector)
    assert torch.allclose(got[0], expected[0], atol=1e-6) and torch.allclose(got[1], expected[1], atol=1e-6)
    assert not pol.numpy_actable()


@pytest.mark.parametrize(
    ("keys", "separate", "kind", "match"),
    [
        (
            ["lidar"],
            False,
            "lstm",
            r"\['lidar'\] not observed; known: \['head_depth', 'is_holding', 'joint', 'ranges'\]",
        ),
        (["head_depth"], False, "lstm", "are images"),
        (["ranges"], True, "mlp", "needs policy.kind=lstm"),
    ],
)
def test_critic_keys_refused_name_the_field(keys: list[str], separate: bool, kind: str, match: str) -> None:
    cfg = PolicyConfig(
        kind=kind, hidden_size=8, mlp_hidden=16, image_features=8, separate_critic=separate, critic_keys=keys
    )
    with pytest.raises(ValueError, match=match) as e:
        ActorCritic(_privileged_space(), 3, cfg)
    assert "policy." in str(e.value)


def test_critic_keys_leave_the_actor_something_to_read() -> None:
    vectors = gym.spaces.Dict({"ranges": gym.spaces.Box(0.0, 2.0, (5,), np.float32)})
    with pytest.raises(ValueError, match=r"policy.critic_keys=\['ranges'\] leaves the actor no observation"):
        ActorCritic(vectors, 2, PolicyConfig(kind="mlp", mlp_hidden=8, critic_keys=["ranges"]))
