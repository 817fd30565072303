"""The PPO learner: epochs over shuffled minibatches (recurrent sequences, or single steps for a policy
without memory), clipped losses with VER's importance weights, PopArt value targets, a learned entropy
coefficient, gradient clipping, optional KL early stopping, Adam with cosine decay to zero."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import NamedTuple

import torch
from torch import Tensor

from tpsrl.engine.buffer import Rollout
from tpsrl.engine.entropy import cosine_lr, entropy_coef_step
from tpsrl.engine.gae import normalize
from tpsrl.engine.losses import ppo_losses
from tpsrl.engine.minibatch import Packed, flat_minibatches, minibatches, pack
from tpsrl.engine.policy import ActorCritic


@dataclass
class PPOConfig:
    """PPO hyper-parameters. Defaults: what learned best in `tpsrl-bench learn`; the VER paper's settings
    are the `ppo=paper` preset (see docs/engine.md)."""

    lr: float = 3e-4
    """Adam learning rate at the start (paper: 2.5e-4)."""
    lr_schedule: str = "constant"
    """constant | cosine (decay to 0 over the run; the paper's)."""
    lr_decay_start: float = 0.0
    """With `cosine`: the fraction of the run the rate is held at `lr` before its decay (0: the paper's
    decay over the whole run). For skills whose success comes late (see docs/results.md)."""
    adam_eps: float = 1e-5
    """Adam epsilon."""
    epochs: int = 10
    """Passes over each rollout (paper: 3 for training, 2 in its benchmark)."""
    num_minibatches: int = 8
    """Minibatches per epoch, each of T x N / num_minibatches steps (paper: 2)."""
    clip: float = 0.2
    """PPO ratio clip epsilon."""
    value_coef: float = 0.5
    """Weight of the value loss 0.5 * (V - R)^2."""
    gamma: float = 0.99
    """Discount."""
    gae_lambda: float = 0.95
    """GAE lambda."""
    max_sequence_length: int = 128
    """Longest sequence the LSTM runs over in learning (truncated BPTT, from stored states); 0: whole
    sequences. VER's fast environments contribute long sequences; this keeps its learning step as cheap
    as sync's (whose sequences are at most T = 128 long by construction)."""
    max_grad_norm: float = 0.5
    """Global gradient-norm clip (paper / habitat-lab rearrangement: 0.2)."""
    normalize_advantages: bool = True
    """Normalise advantages over each rollout (paper: off)."""
    target_kl: float = 0.0
    """Stop the update's remaining minibatches once a minibatch's approximate KL exceeds 1.5 x this
    (0: never)."""
    entropy_target: float = 0.0
    """Target entropy of the action distribution (sum over dimensions; paper: 0)."""
    entropy_coef_init: float = 1e-3
    """Initial entropy coefficient alpha."""
    entropy_coef_min: float = 1e-4
    """Lower bound of alpha (paper: 1e-4)."""
    entropy_coef_max: float = 1.0
    """Upper bound of alpha (paper: 1.0)."""
    entropy_coef_lr: float = 0.01
    """Step size of the log-alpha update, once per minibatch."""
    obs_stats_until: int = 0
    """A sensor's observation statistics (the policy's input normaliser) stop moving once they hold this
    many samples; 0: they never stop. For fine-tunes on other episodes (`run.init_from`): a source
    trained for 5M steps holds 5M samples and keeps its statistics, while a sensor added to it
    (`skills.warmstart --add-sensor`) gathers its own up to this count. Without it the pick fine-tuned
    from starts up to 8 m away saw its object-position input's variance rise 0.08 -> 0.31 and its joints'
    up to 2x in 0.5M steps: the trained network read its object sensor scaled by 0.5-0.7. (Stopping them
    did not make that fine-tune pick more from far: docs/results.md, nineteenth session.)"""


class LearningDiverged(RuntimeError):
    """A minibatch's gradient was not finite; the weights were not stepped with it."""

    def __init__(self, update: int, parts: dict[str, float]) -> None:
        said = ", ".join(f"{k} {v:.4g}" for k, v in parts.items())
        super().__init__(
            f"learning diverged in update {update}: the gradient of a minibatch's loss is not finite ({said}); "
            "the weights were not stepped with it. Lower ppo.lr, or set ppo.target_kl to end a learning "
            "phase that moves the policy too far"
        )
        self.update = update


class Steps(NamedTuple):
    """A feed-forward policy's steps for one learning phase (see `PPO._steps`), row j for slot
    `rollout.slots[j]`."""

    table: Tensor  # [S, D + A + 4]: normalised vector observations, action, then 4 columns: old
    # log-prob, advantage, target, weight
    images: dict[str, Tensor]  # normalised image observations {key: [S, H, W, C]}
    vector_size: int  # D


def clip_grad_norm(grads: list[Tensor], max_norm: float) -> Tensor:
    """Scales `grads` in place so that their global L2 norm is at most `max_norm`, as
    `nn.utils.clip_grad_norm_` does (scale min(1, max_norm / (norm + 1e-6))), at about half its cost for a
    few small tensors on a CPU (it groups tensors by device and dtype first); returns the norm before
    scaling. A non-finite norm leaves the gradients as they are (the caller must not step with them)."""
    norm = torch.linalg.vector_norm(torch.stack([torch.linalg.vector_norm(g) for g in grads]))
    if torch.isfinite(norm):
        scale = (max_norm / (norm + 1e-6)).clamp(max=1.0)
        for g in grads:
            g.mul_(scale)
    return norm


class Anchor(NamedTuple):
    """What one learning phase holds fixed, by buffer slot (see `PPO._anchor`)."""

    log_probs: Tensor  # [C] the log-probs the ratio is clipped around
    weights: Tensor  # [C] per-step weights
    states: Tensor  # [C, *state_shape] recurrent state before each step, where a sequence may start


class PPO:
    """Owns the optimizer and the entropy coefficient; `update` learns from one rollout."""

    def __init__(self, policy: ActorCritic, cfg: PPOConfig, device: torch.device, seed: int) -> None:
        self.policy, self.cfg, self.device = policy, cfg, device
        # fused: one kernel for all parameters (on a CPU about a third of the non-fused step's cost, ~13% of
        # a learning phase for the CPU presets); a resumed run keeps the implementation it was saved with
        self.optimizer = torch.optim.Adam(
            policy.parameters(), lr=cfg.lr, eps=cfg.adam_eps, fused=device.type in ("cpu", "cuda")
        )
        self.params = list(policy.parameters())  # walking the modules per minibatch costs ~5% of learning
        self.log_entropy_coef = torch.tensor(math.log(cfg.entropy_coef_init))
        self.generator = torch.Generator().manual_seed(seed)

    @property
    def entropy_coef(self) -> float:
        return float(self.log_entropy_coef.exp())

    def lr_at(self, update: int, total_updates: int) -> float:
        if self.cfg.lr_schedule == "constant":
            return self.cfg.lr
        return cosine_lr(self.cfg.lr, update, total_updates, self.cfg.lr_decay_start)

    def _evaluate(self, rollout: Rollout, mb: Packed, states: Tensor) -> tuple[Tensor, Tensor]:
        """Log-probs and values of `mb`'s steps, each sequence starting from `states` (by slot)."""
        buf, slots, dev = rollout.buffer, mb.slots, self.device
        return self.policy.evaluate(
            {k: x[slots].to(dev) for k, x in buf.obs.items()},
            buf.prev_action[slots].to(dev),
            buf.action[slots].to(dev),
            mb.mask.to(dev),
            states[mb.starts].to(dev),
        )

    def _minibatch_loss(
        self, rollout: Rollout, mb: Packed, anchor: Anchor, advantages: Tensor, targets: Tensor
    ) -> tuple[Tensor, dict[str, Tensor]]:
        """The loss of a recurrent minibatch, its steps read from the buffer by slot."""
        slots, dev = mb.slots, self.device
        log_probs, values = self._evaluate(rollout, mb, anchor.states)
        at = {
            "old_log_prob": anchor.log_probs,
            "advantage": advantages,
            "target": targets,
            "weight": anchor.weights,
        }
        return self._loss(log_probs, values, {k: x[slots].to(dev) for k, x in at.items()})

    def _steps(
        self, rollout: Rollout, old_log_probs: Tensor, weights: Tensor, advantages: Tensor, targets: Tensor
    ) -> Steps:
        """A feed-forward policy's completed steps, gathered once per learning phase in `rollout.slots`
        order, observations normalised (their statistics move only after learning) and the vector ones
        concatenated: each minibatch then takes its rows of one table with one indexing. Same numbers as
        gathering, normalising and concatenating per minibatch, with about 20 fewer tensor operations per
        minibatch (a tenth of the learning phase for the 2 x 64 MLP on pick's four vector observations)."""
        slots, dev, buf, policy = rollout.slots, self.device, rollout.buffer, self.policy
        obs = policy.normalize_obs({k: x[slots].to(dev) for k, x in buf.obs.items()})
        vector = policy.vector_input(obs)
        columns = [] if vector is None else [vector]
        columns += [buf.action[slots].to(dev)]
        columns += [x[slots].to(dev)[:, None] for x in (old_log_probs, advantages, targets, weights)]
        images = {k: obs[k] for k in policy.actor_body.encoder.image_keys}
        return Steps(torch.cat(columns, dim=1), images, 0 if vector is None else vector.shape[1])

    def _step_loss(self, steps: Steps, rows: Tensor) -> tuple[Tensor, dict[str, Tensor]]:
        """The loss of a feed-forward minibatch: rows `rows` of `_steps`."""
        rows = rows.to(self.device)
        table, d, a = steps.table[rows], steps.vector_size, self.policy.action_dim
        log_probs, values = self.policy.evaluate_steps(
            {k: x[rows] for k, x in steps.images.items()}, table[:, d : d + a], table[:, :d] if d else None
        )
        at = dict(
            zip(("old_log_prob", "advantage", "target", "weight"), table[:, d + a :].unbind(1), strict=True)
        )
        return self._loss(log_probs, values, at)

    def _loss(
        self, log_probs: Tensor, values: Tensor, at: dict[str, Tensor]
    ) -> tuple[Tensor, dict[str, Tensor]]:
        losses = ppo_losses(
            log_probs, at["old_log_prob"], at["advantage"], values, at["target"], at["weight"], self.cfg.clip
        )
        entropy = self.policy.entropy()
        alpha = self.log_entropy_coef.exp().to(self.device)
        loss = losses["policy"] + self.cfg.value_coef * losses["value"] - alpha * entropy
        return loss, {**losses, "entropy": entropy}

    def update(self, rollout: Rollout, update: int, total_updates: int) -> dict[str, float]:
        """One learning phase on `rollout`; returns mean metrics."""
        cfg = self.cfg
        lr = self.lr_at(update, total_updates)
        for group in self.optimizer.param_groups:
            group["lr"] = lr
        advantages = rollout.advantages.clone()
        if cfg.normalize_advantages:
            advantages[rollout.slots] = normalize(advantages[rollout.slots])
        # The rollout stays in host memory (minibatches move to the device); the statistics live with the
        # policy, so what they read goes there and the targets come back.
        dev = self.device
        self.policy.update_value_stats(rollout.returns[rollout.slots].to(dev))
        targets = self.policy.value_target(rollout.returns.to(dev)).cpu()
        anchor = self._anchor(rollout)
        steps = None
        if not self.policy.recurrent:
            steps = self._steps(rollout, anchor.log_probs, anchor.weights, advantages, targets)
        logged: list[dict[str, Tensor]] = []  # read once at the end: a float() per value costs a sync each
        stopped = False
        self.policy.train()
        for _ in range(cfg.epochs):
            for mb in self._minibatches(rollout):
                if steps is None:
                    loss, parts = self._minibatch_loss(rollout, mb, anchor, advantages, targets)
                else:
                    loss, parts = self._step_loss(steps, mb.index[0])
                if cfg.target_kl > 0 and float(parts["approx_kl"]) > 1.5 * cfg.target_kl:
                    stopped = True
                    break
                for p in self.params:  # optimizer.zero_grad(set_to_none=True) at a thirtieth of the cost
                    p.grad = None
                loss.backward()
                grad_norm = clip_grad_norm(
                    [p.grad for p in self.params if p.grad is not None], cfg.max_grad_norm
                )
                # a NaN or inf gradient would poison every weight it reaches, and then the checkpoints
                if not torch.isfinite(grad_norm):
                    raise LearningDiverged(update, {k: float(x.detach()) for k, x in parts.items()})
                self.optimizer.step()
                self.log_entropy_coef = entropy_coef_step(
                    self.log_entropy_coef,
                    parts["entropy"].detach().cpu(),
                    cfg.entropy_target,
                    cfg.entropy_coef_lr,
                    (cfg.entropy_coef_min, cfg.entropy_coef_max),
                )
                logged.append(
                    {**{f"loss/{k}": x.detach() for k, x in parts.items()}, "loss/grad_norm": grad_norm}
                )
            if stopped:
                break
        # Observation statistics move after learning, so the ratios above compare the same inputs.
        self.policy.update_obs_stats(
            {k: x[rollout.slots].to(dev) for k, x in rollout.buffer.obs.items()}, cfg.obs_stats_until
        )
        out: dict[str, float] = {}
        if logged:
            means = torch.stack([torch.stack(list(row.values())) for row in logged]).double().mean(0).tolist()
            out = dict(zip(logged[0], means, strict=True))
        if rollout.lagged:  # how far the acting weights were behind: mean truncated pi_prox / pi_behaviour
            out["learn/lag_weight"] = float(
                (anchor.weights[rollout.slots] / rollout.weights[rollout.slots]).mean()
            )
        out.update(
            {
                "learn/lr": lr,
                "learn/entropy_coef": self.entropy_coef,
                "learn/minibatches": float(len(logged)),
                "learn/kl_stopped": float(stopped),
            }
        )
        if self.policy.value_norm is not None:
            out.update(
                {
                    "learn/return_mean": float(self.policy.value_norm.mean),
                    "learn/return_std": float(self.policy.value_norm.std),
                }
            )
        return out

    def _anchor(self, rollout: Rollout) -> Anchor:
        """The log-probs the ratio is clipped around, the per-step weights and the recurrent states the
        minibatches' sequences start from.

        Normally the behaviour log-probs, VER's weights and the states stored at collection. A rollout
        acted by older weights (`rollout.lagged`: overlapped learning) is learned with the decoupled
        objective of Hilton et al. (2022, "Batch size-invariance for policy optimization"): the ratio is
        taken to the policy as it is before this update (the proximal policy, so the clip bounds this
        update's step, not the lag), and each step is weighted by pi_prox / pi_behaviour, truncated at 1
        (V-trace's rho-bar). A recurrent policy's states are then recomputed by the proximal weights: a
        minibatch cuts sequences anywhere, and a cut sequence started from the acting weights' stored state
        would put the first epoch's ratios off 1 (measured: log-ratios up to 0.4 before any step, and
        runs that diverged once the policy was sharp)."""
        buf = rollout.buffer
        if not rollout.lagged:
            return Anchor(buf.log_prob, rollout.weights, buf.state)
        states = buf.state
        if self.policy.recurrent:
            everything = pack(rollout.sequences)
            states = buf.state.clone()
            slots, dev = everything.slots, self.device
            states[slots] = self.policy.sequence_states(
                {k: x[slots].to(dev) for k, x in buf.obs.items()},
                buf.prev_action[slots].to(dev),
                everything.mask.to(dev),
                buf.state[everything.starts].to(dev),
            ).cpu()
        else:
            everything = Packed(rollout.slots[None], torch.ones(len(rollout.slots), dtype=torch.long))
        # `evaluate` again rather than reading log-probs off the states' pass: the minibatches' numbers
        with torch.no_grad():
            prox = self._evaluate(rollout, everything, states)[0].cpu()
        slots = everything.slots
        old_log_probs, weights = buf.log_prob.clone(), rollout.weights.clone()
        old_log_probs[slots] = prox
        weights[slots] *= torch.exp(prox - buf.log_prob[slots]).clamp(max=1.0)
        return Anchor(old_log_probs, weights, states)

    def _minibatches(self, rollout: Rollout) -> list[Packed]:
        cfg = self.cfg
        if self.policy.recurrent:
            return minibatches(
                rollout.sequences, cfg.num_minibatches, self.generator, cfg.max_sequence_length
            )
        # positions into `_steps`' rows (row j is slot rollout.slots[j]): the same draw as shuffling slots
        return flat_minibatches(torch.arange(len(rollout.slots)), cfg.num_minibatches, self.generator)

    def state_dict(self) -> dict:
        return {
            "optimizer": self.optimizer.state_dict(),
            "log_entropy_coef": self.log_entropy_coef.clone(),
            "generator": self.generator.get_state(),
        }

    def load_state_dict(self, state: dict) -> None:
        self.optimizer.load_state_dict(state["optimizer"])
        self.log_entropy_coef = state["log_entropy_coef"].clone()
        self.generator.set_state(state["generator"])
