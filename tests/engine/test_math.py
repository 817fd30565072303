"""The engine's pure math against numbers worked out by hand."""

from __future__ import annotations

import math

import pytest
import torch

from tpsrl.engine.buffer import carry_rows
from tpsrl.engine.entropy import cosine_lr, entropy_coef_step, gaussian_entropy
from tpsrl.engine.gae import bootstrap_values, gae, importance_weights, next_values
from tpsrl.engine.losses import ppo_losses
from tpsrl.engine.ppo import clip_grad_norm


def test_gae_hand_computed_with_termination_truncation_and_cut() -> None:
    # One column, gamma 0.5, lambda 0.5.
    # t0: r=1, V=0.5, next V=1.0 (s1), no cut     -> delta0 = 1 + 0.5*1.0 - 0.5 = 1.0
    # t1: r=0, V=1.0, terminated: next value 0, cut -> delta1 = 0 + 0 - 1.0 = -1.0;  A1 = -1.0
    # A0 = delta0 + 0.25 * A1 = 0.75
    r = torch.tensor([[1.0], [0.0]])
    v = torch.tensor([[0.5], [1.0]])
    nv = torch.tensor([[1.0], [0.0]])
    cuts = torch.tensor([[False], [True]])
    adv, ret = gae(r, v, nv, cuts, gamma=0.5, lam=0.5)
    assert torch.allclose(adv, torch.tensor([[0.75], [-1.0]]))
    assert torch.allclose(ret, torch.tensor([[1.25], [0.0]]))


def test_gae_truncation_bootstraps_and_cut_stops_recursion() -> None:
    # Column 0: truncated at t0 with V(final obs)=2: delta0 = 1 + 0.9*2 - 1 = 1.8; cut, so A0 = 1.8 even
    # though t1 (a new episode) has a large advantage: delta1 = 10 + 0 - 0 = 10.
    # Column 1: gamma*lambda = 0.9*0.8 = 0.72: delta = [0, 1]; A1 = 1, A0 = 0 + 0.72 = 0.72.
    r = torch.tensor([[1.0, 0.0], [10.0, 1.0]])
    v = torch.tensor([[1.0, 0.0], [0.0, 0.0]])
    nv = torch.tensor([[2.0, 0.0], [0.0, 0.0]])
    cuts = torch.tensor([[True, False], [True, True]])
    adv, _ = gae(r, v, nv, cuts, gamma=0.9, lam=0.8)
    assert torch.allclose(adv, torch.tensor([[1.8, 0.72], [10.0, 1.0]]))


def test_importance_weights() -> None:
    # (T + 1) / (n_e + 1) with T = 3: env0 gave 7 steps -> 4/8 = 0.5; env1 gave 2 -> 4/3 -> capped at 1;
    # env2 gave T = 3 (uniform sampling) -> exactly 1, also when the cap is above 1 (the old form
    # (T + 1) / n_e gave 4/3 there).
    env = torch.tensor([0] * 7 + [1] * 2 + [2] * 3)
    w = importance_weights(env, num_envs=3, rollout_steps=3)
    assert torch.allclose(w, torch.tensor([0.5] * 7 + [1.0] * 2 + [1.0] * 3))
    loose = importance_weights(env, 3, 3, max_weight=2.0)
    assert torch.allclose(loose[7:9], torch.tensor([4 / 3, 4 / 3]))
    assert torch.allclose(loose[9:], torch.ones(3))


def test_ppo_losses_hand_computed() -> None:
    # Step 0: ratio e^{ln 1.5} = 1.5, A = 2  -> min(3.0, 1.2*2 = 2.4) = 2.4 (clipped), w = 1
    # Step 1: ratio 0.5, A = -1 -> min(-0.5, 0.8*-1 = -0.8) = -0.8 (clipped), w = 0.5 -> -0.4
    # policy = -(2.4 - 0.4) / 2 = -1.0
    # value = 0.5 * mean(w * (v - R)^2) = 0.5 * (1 * 1^2 + 0.5 * 2^2) / 2 = 0.75
    lp = torch.tensor([math.log(1.5), math.log(0.5)])
    old = torch.zeros(2)
    out = ppo_losses(
        lp,
        old,
        torch.tensor([2.0, -1.0]),
        torch.tensor([1.0, 0.0]),
        torch.tensor([0.0, 2.0]),
        torch.tensor([1.0, 0.5]),
        clip=0.2,
    )
    assert out["policy"].item() == pytest.approx(-1.0)
    assert out["value"].item() == pytest.approx(0.75)
    assert out["clip_fraction"].item() == pytest.approx(1.0)


def test_ppo_losses_unclipped_gradient_direction() -> None:
    lp = torch.zeros(1, requires_grad=True)
    out = ppo_losses(
        lp, torch.zeros(1), torch.tensor([1.0]), torch.zeros(1), torch.zeros(1), torch.ones(1), 0.2
    )
    out["policy"].backward()
    assert lp.grad.item() == pytest.approx(-1.0)  # descending raises the log-prob of a positive advantage


def test_ppo_losses_stay_finite_for_an_action_deep_in_the_tail() -> None:
    # An overlapped rollout's action 5000 nats down the proximal policy, 200 nats up after a few steps:
    # exp(200) overflows float32, and its truncated importance weight is 0 (0 * inf was NaN).
    for weight in (0.0, 1.0):
        lp = torch.tensor([-4800.0, 0.1], requires_grad=True)
        out = ppo_losses(
            lp,
            torch.tensor([-5000.0, 0.0]),
            torch.tensor([-1.0, 1.0]),
            torch.zeros(2),
            torch.zeros(2),
            torch.tensor([weight, 1.0]),
            0.2,
        )
        out["policy"].backward()
        assert torch.isfinite(out["policy"]) and torch.isfinite(out["approx_kl"])
        assert bool(torch.isfinite(lp.grad).all())
        assert lp.grad[1].item() == pytest.approx(-math.exp(0.1) / 2)  # the ordinary step is untouched


def test_entropy_coef_step_hand_computed() -> None:
    # log alpha = ln 0.1; H = 1.5 above target 0.5 -> log alpha - 0.1 * 1.0
    new = entropy_coef_step(torch.tensor(math.log(0.1)), torch.tensor(1.5), 0.5, lr=0.1, bounds=(1e-4, 1.0))
    assert new.item() == pytest.approx(math.log(0.1) - 0.1)
    # below target: grows, but never past the upper bound
    up = entropy_coef_step(torch.tensor(math.log(0.9)), torch.tensor(-5.0), 0.0, lr=1.0, bounds=(1e-4, 1.0))
    assert up.item() == pytest.approx(0.0)
    down = entropy_coef_step(
        torch.tensor(math.log(2e-4)), torch.tensor(50.0), 0.0, lr=1.0, bounds=(1e-4, 1.0)
    )
    assert down.exp().item() == pytest.approx(1e-4)


def test_cosine_lr_and_gaussian_entropy() -> None:
    assert cosine_lr(1.0, 0, 10) == pytest.approx(1.0)
    assert cosine_lr(1.0, 5, 10) == pytest.approx(0.5)
    assert cosine_lr(1.0, 10, 10) == pytest.approx(0.0)
    # held for the first 40% of 10 updates, then decayed over the other 6: halfway at update 7
    assert cosine_lr(1.0, 4, 10, start=0.4) == pytest.approx(1.0)
    assert cosine_lr(1.0, 7, 10, start=0.4) == pytest.approx(0.5)
    assert cosine_lr(1.0, 10, 10, start=0.4) == pytest.approx(0.0)
    assert cosine_lr(2.0, 2, 10, start=0.4) == pytest.approx(2.0)
    # one dimension, sigma = 1: 0.5 * ln(2 pi e) = 1.4189385
    assert gaussian_entropy(torch.zeros(1)).item() == pytest.approx(1.4189385, abs=1e-6)
    assert gaussian_entropy(torch.tensor([0.0, -1.0])).item() == pytest.approx(2 * 1.4189385 - 1.0, abs=1e-6)


def test_next_values_per_environment() -> None:
    # slots: env 0 at 0, 2, 3; env 1 at 1, 4. tail = [10, 20]
    env = torch.tensor([0, 1, 0, 0, 1])
    values = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    nv = next_values(env, values, torch.tensor([10.0, 20.0]))
    assert nv.tolist() == [2.0, 4.0, 3.0, 10.0, 20.0]


def test_bootstrap_values_end_episodes() -> None:
    # as above; env 0's slot 2 terminated (no value after it), env 1's slot 4 was truncated with a final
    # observation worth 7: its tail (20) is not the next state's value, that episode's is
    env = torch.tensor([0, 1, 0, 0, 1])
    values = torch.tensor([0.0, 1.0, 2.0, 3.0, 4.0])
    terminated = torch.tensor([False, False, True, False, False])
    truncated = torch.tensor([False, False, False, False, True])
    final = torch.tensor([0.0, 0.0, 0.0, 0.0, 7.0])
    nv = bootstrap_values(env, values, torch.tensor([10.0, 20.0]), terminated, truncated, final)
    assert nv.tolist() == [2.0, 4.0, 0.0, 10.0, 7.0]


def test_carry_rows_moves_in_flight_rows_to_front() -> None:
    t = torch.arange(10.0).reshape(5, 2)
    carry_rows([t], torch.tensor([1, 4]))
    assert t[:2].tolist() == [[2.0, 3.0], [8.0, 9.0]]


@pytest.mark.parametrize("scale", [0.01, 100.0])
def test_clip_grad_norm_matches_torch(scale: float) -> None:
    """Below the limit the gradients stay, above it they are scaled to it, as `nn.utils.clip_grad_norm_`
    does; the norm returned is the one before scaling; a non-finite norm leaves them alone."""
    torch.manual_seed(0)
    grads = [scale * torch.randn(5, 3), scale * torch.randn(7), scale * torch.randn(1)]
    before = math.sqrt(sum(float(g.square().sum()) for g in grads))
    params = [torch.nn.Parameter(torch.zeros_like(g)) for g in grads]
    for p, g in zip(params, grads, strict=True):
        p.grad = g.clone()
    expected = torch.nn.utils.clip_grad_norm_(params, 0.5)
    norm = clip_grad_norm(grads, 0.5)
    assert math.isclose(float(norm), before, rel_tol=1e-5) and torch.allclose(norm, expected, rtol=1e-6)
    for p, g in zip(params, grads, strict=True):
        assert torch.allclose(g, p.grad, rtol=1e-6)
    after = math.sqrt(sum(float(g.square().sum()) for g in grads))
    assert math.isclose(after, min(before, 0.5), rel_tol=1e-5)
    bad = [torch.tensor([1.0, float("nan")]), torch.tensor([2.0])]
    assert not torch.isfinite(clip_grad_norm(bad, 0.5)) and float(bad[1]) == 2.0
