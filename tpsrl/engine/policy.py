"""Actor-critic: observation normaliser -> dict encoder -> core -> independent Gaussian actions (learned,
state-independent log-std) and a PopArt value head.

Two cores (`policy.kind`):
- `lstm`: encoder features + previous action -> stacked LSTM (the VER paper's policy). Recurrent state
  `[B, layers, 2, H]` (index 0 of dim 2 is h, 1 is c), zero at episode starts.
- `mlp`: the encoder's MLP alone, no memory: state `[B, 0]`, previous action unused. The fastest choice
  for state observations that describe the task fully (most skills, MuJoCo control tasks).

With `policy.separate_critic` the critic has its own encoder and core (its recurrent state is stacked
after the actor's along dim 1). Every caller treats the state as an opaque `[B, *state_shape()]` tensor.

With `policy.critic_keys` the actor-critic is asymmetric: those observations (privileged state, vectors)
reach only the value estimate, so the actions depend on the other observations alone. A shared body's
value head reads its features beside a small MLP over the critic keys; a separate critic body reads all.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field

import gymnasium as gym
import numpy as np
import torch
from torch import Tensor, nn

from tpsrl.engine.encoders import DictEncoder, is_image
from tpsrl.engine.entropy import gaussian_entropy
from tpsrl.engine.normalize import RunningMeanStd, ValueNormalizer

KINDS = ("lstm", "mlp")


@dataclass
class PolicyConfig:
    """Actor-critic architecture (defaults: the `cpu` preset, see docs/engine.md "Policies")."""

    kind: str = "lstm"
    """Core: lstm (recurrent, the VER paper's) | mlp (feed-forward, no memory)."""
    hidden_size: int = 128
    """LSTM hidden size (the paper: 512)."""
    lstm_layers: int = 2
    """Number of stacked LSTM layers."""
    mlp_hidden: int = 128
    """Width of the MLP over the concatenated vector observations."""
    mlp_layers: int = 2
    """Layers of that MLP."""
    activation: str = "tanh"
    """Activation of that MLP: tanh | relu."""
    separate_critic: bool = False
    """Give the critic its own encoder and core instead of sharing the actor's."""
    critic_keys: list[str] = field(default_factory=list)
    """Vector observations only the critic reads (an asymmetric actor-critic: privileged state for the
    value estimate; the actions never depend on them). Empty: the actor and critic read the same."""
    normalize_obs: bool = True
    """Normalise vector observations by running mean and std (clipped to +-`obs_clip`); images are left
    alone."""
    obs_clip: float = 10.0
    """Normalised vector observations are clipped to +-this many standard deviations. Changes no weight:
    a policy may be fine-tuned (`run.init_from`) with another value. At 10 the pick's object sensor, its
    statistics from starts within 2 m, reads at most ~2.4 m ahead: NoNav's first picks start a median ~5 m
    away. Widened to 30 for a NoNav fine-tune it gave fewer of those picks than the default, and more own-task
    timeouts (docs/results.md, forty-sixth session)."""
    normalize_value: bool = True
    """PopArt: the critic learns normalised returns (running mean/std, output-preserving updates)."""
    image_encoder: str = "cnn"
    """Encoder for `[H, W, C]` image observations such as depth: cnn | resnet18 (half width, GroupNorm) |
    flat (one linear layer over the pixels: small images on a CPU)."""
    image_features: int = 256
    """Output features of each image encoder."""
    init_log_std: float = 0.0
    """Initial log standard deviation of every action dimension."""
    init_action_mean: list[float] = field(default_factory=list)
    """Initial mean action, one value per action dimension (the actor head's bias; its weights start near
    0); empty: 0 everywhere. The skills set their grip from `skill.grip_init_mean`."""


class LSTMCore(nn.Module):
    """Stacked LSTM over (features, previous action); acting one step, learning over padded sequences."""

    def __init__(self, in_features: int, hidden: int, layers: int) -> None:
        super().__init__()
        self.lstm = nn.LSTM(in_features, hidden, layers)
        self.out_features, self.state_shape = hidden, (layers, 2, hidden)

    def step(self, x: Tensor, state: Tensor) -> tuple[Tensor, Tensor]:
        """`[B, F]`, `[B, layers, 2, H]` -> output `[B, H]`, next state.

        One fused `lstm_cell` per layer: the same numbers as `nn.LSTM` on one step, at about 60% of its
        cost for small acting batches on a CPU (oneDNN's sequence kernel is slow there), with no global
        switch flipped per call."""
        lstm, out = self.lstm, x
        next_state = torch.empty_like(state)
        for layer in range(lstm.num_layers):
            h, c = torch.lstm_cell(
                out,
                (state[:, layer, 0], state[:, layer, 1]),
                getattr(lstm, f"weight_ih_l{layer}"),
                getattr(lstm, f"weight_hh_l{layer}"),
                getattr(lstm, f"bias_ih_l{layer}"),
                getattr(lstm, f"bias_hh_l{layer}"),
            )
            next_state[:, layer, 0], next_state[:, layer, 1] = h, c
            out = h
        return out, next_state

    def sequences(self, x: Tensor, mask: Tensor, start_state: Tensor) -> Tensor:
        """`[S, F]` steps in the row-major order of `mask` `[L, K]` -> `[S, H]` (see `ActorCritic.evaluate`)."""
        padded = x.new_zeros(*mask.shape, x.shape[-1])
        padded[mask] = x
        # each contiguous: cuDNN refuses a strided state (the CPU kernel takes either)
        h0, c0 = (s.contiguous() for s in start_state.permute(1, 2, 0, 3).unbind(1))
        # The padded block, not a PackedSequence: a step's output does not depend on the zeros after its
        # sequence's end, so the numbers are the packed ones (to float rounding), and on a CPU the packed
        # call costs 2-3x more once the lengths differ (docs/engine.md, "Learning an LSTM").
        out, _ = self.lstm(padded, (h0, c0))
        return out[mask]


class Body(nn.Module):
    """Encoder plus core: observations (and previous action) -> features for a head."""

    def __init__(self, obs_space: gym.spaces.Dict, action_dim: int, cfg: PolicyConfig) -> None:
        super().__init__()
        self.encoder = DictEncoder(
            obs_space, cfg.image_encoder, cfg.image_features, cfg.mlp_hidden, cfg.mlp_layers, cfg.activation
        )
        self.core: LSTMCore | None = None
        self.out_features, self.state_shape = self.encoder.out_features, (0,)
        if cfg.kind == "lstm":
            self.core = LSTMCore(self.encoder.out_features + action_dim, cfg.hidden_size, cfg.lstm_layers)
            self.out_features, self.state_shape = self.core.out_features, self.core.state_shape

    def step(self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor) -> tuple[Tensor, Tensor]:
        x = self.encoder(obs)
        if self.core is None:
            return x, state
        return self.core.step(torch.cat([x, prev_action], dim=-1), state)

    def sequences(self, obs: dict[str, Tensor], prev_action: Tensor, mask: Tensor, start: Tensor) -> Tensor:
        x = self.encoder(obs)
        if self.core is None:
            return x
        return self.core.sequences(torch.cat([x, prev_action], dim=-1), mask, start)

    def sequence_states(
        self, obs: dict[str, Tensor], prev_action: Tensor, mask: Tensor, start: Tensor
    ) -> Tensor:
        """The core's state before each step of `sequences`' layout: `[S, *state_shape]`."""
        assert self.core is not None
        x = torch.cat([self.encoder(obs), prev_action], dim=-1)
        states, state, first = x.new_empty(len(x), *start.shape[1:]), start, 0
        for n in mask.sum(1).tolist():  # columns sorted by length: the first n sequences have a step at l
            states[first : first + n] = state[:n]
            state = self.core.step(x[first : first + n], state[:n])[1]
            first += n
        return states


def _check(cfg: PolicyConfig) -> None:
    if cfg.kind not in KINDS:
        raise ValueError(f"policy.kind={cfg.kind!r}; accepted: {' | '.join(KINDS)}")


def _split_space(
    obs_space: gym.spaces.Dict, critic_keys: list[str]
) -> tuple[gym.spaces.Dict, gym.spaces.Dict]:
    """(what the actor reads, what only the critic reads), checking `policy.critic_keys` against the space."""
    spaces = obs_space.spaces
    unknown = [k for k in critic_keys if k not in spaces]
    if unknown:
        raise ValueError(
            f"policy.critic_keys={list(critic_keys)!r}: {unknown} not observed; known: {sorted(spaces)}"
        )
    images = [k for k in critic_keys if is_image(spaces[k])]
    if images:
        raise ValueError(
            f"policy.critic_keys={list(critic_keys)!r}: {images} are images; only vectors are accepted"
        )
    actor = {k: s for k, s in spaces.items() if k not in critic_keys}
    if not actor:
        raise ValueError(f"policy.critic_keys={list(critic_keys)!r} leaves the actor no observation")
    return gym.spaces.Dict(actor), gym.spaces.Dict({k: spaces[k] for k in critic_keys})


def _head(features: int, out: int, gain: float) -> nn.Linear:
    layer = nn.Linear(features, out)
    nn.init.orthogonal_(layer.weight, gain=gain)
    nn.init.zeros_(layer.bias)
    return layer


class _ActStep(nn.Module):
    """`ActorCritic._act` with sampling over positional inputs (observations in `keys` order), for tracing."""

    def __init__(self, policy: ActorCritic, keys: tuple[str, ...]) -> None:
        super().__init__()
        self.policy, self.keys = policy, keys

    def forward(
        self, obs: tuple[Tensor, ...], prev_action: Tensor, state: Tensor
    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        return self.policy._act(dict(zip(self.keys, obs, strict=True)), prev_action, state)


_NUMPY_ACTIVATIONS = {"tanh": np.tanh, "relu": lambda x: np.maximum(x, 0.0)}


class NumpyActing:
    """`ActorCritic.act` of a feed-forward policy on vector observations, in numpy, from a snapshot of its
    weights and statistics (take a new one after they change): about 30 numpy calls instead of about 65
    torch calls, several times cheaper for one worker's few environments on a CPU. The same numbers as
    `act` given the same noise (`act(..., noise=...)`); the noise comes from a numpy generator."""

    def __init__(self, policy: ActorCritic, rng: np.random.Generator) -> None:
        if not policy.numpy_actable():
            raise ValueError("NumpyActing needs policy.kind=mlp and vector observations only")
        self.rng = rng
        enc = policy.actor_body.encoder
        self.keys = enc.vector_keys
        self.sizes = [math.prod(policy.obs_space_shapes[k]) for k in self.keys]
        norms = [policy.obs_norm[k] for k in self.keys] if policy.obs_norm else []
        self.norm: tuple[np.ndarray, np.ndarray, float] | None = None
        if norms and all(n.ready for n in norms):
            mean = np.concatenate([n.mean.detach().cpu().numpy() for n in norms]).astype(np.float32)
            inv = np.concatenate([n._inv_std.detach().cpu().numpy() for n in norms]).astype(np.float32)
            self.norm = (mean, inv, norms[0].clip)
        self.activation = _NUMPY_ACTIVATIONS[policy.cfg.activation]

        def layers(body: Body) -> list[tuple[np.ndarray, np.ndarray]]:
            linears = [m for m in body.encoder.mlp.modules() if isinstance(m, nn.Linear)]  # type: ignore[union-attr]
            return [
                (m.weight.detach().cpu().numpy().T.copy(), m.bias.detach().cpu().numpy().copy())
                for m in linears
            ]

        def head(layer: nn.Linear) -> tuple[np.ndarray, np.ndarray]:
            return layer.weight.detach().cpu().numpy().T.copy(), layer.bias.detach().cpu().numpy().copy()

        self.actor_layers, self.actor = layers(policy.actor_body), head(policy.actor)
        self.critic_layers = layers(policy.critic_body) if policy.critic_body is not None else None
        self.critic = head(policy.critic)
        self.log_std = policy.log_std.detach().cpu().numpy().copy()
        self.std = np.exp(self.log_std)
        self.log_prob_const = float(self.log_std.sum() + 0.5 * math.log(2 * math.pi) * len(self.log_std))
        vn = policy.value_norm
        self.value_scale = (float(vn.std), float(vn.mean)) if vn is not None else (1.0, 0.0)

    def _features(self, x: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
        for w, b in layers:
            x = self.activation(x @ w + b)
        return x

    def act(
        self, obs: dict[str, np.ndarray], noise: np.ndarray | None = None, deterministic: bool = False
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """`{key: [B, *shape]}` raw observations -> action `[B, A]`, log_prob `[B]`, value `[B]` (float32)."""
        b = len(obs[self.keys[0]])
        x = np.concatenate([obs[k].reshape(b, -1) for k in self.keys], axis=1, dtype=np.float32)
        if self.norm is not None:
            mean, inv, clip = self.norm
            x = np.clip((x - mean) * inv, -clip, clip)
        h = self._features(x, self.actor_layers)
        mu = h @ self.actor[0] + self.actor[1]
        if noise is None:
            noise = np.zeros_like(mu) if deterministic else self.rng.standard_normal(mu.shape, np.float32)
        action = mu + noise * self.std
        log_prob = -0.5 * np.square(noise).sum(-1) - self.log_prob_const
        if self.critic_layers is not None:
            h = self._features(x, self.critic_layers)
        value = (h @ self.critic[0] + self.critic[1])[:, 0] * self.value_scale[0] + self.value_scale[1]
        return action.astype(np.float32), log_prob.astype(np.float32), value.astype(np.float32)


class ActorCritic(nn.Module):
    """The policy and value function shared by all collection modes."""

    def __init__(self, obs_space: gym.spaces.Dict, action_dim: int, cfg: PolicyConfig) -> None:
        super().__init__()
        _check(cfg)
        self.cfg, self.action_dim = cfg, action_dim
        self.obs_keys = tuple(obs_space.spaces)
        self.obs_space_shapes = {k: tuple(s.shape) for k, s in obs_space.spaces.items()}
        vector_keys = sorted(k for k, s in obs_space.spaces.items() if not is_image(s))
        self.obs_norm = nn.ModuleDict(
            {k: RunningMeanStd(math.prod(obs_space[k].shape), clip=cfg.obs_clip) for k in vector_keys}
            if cfg.normalize_obs
            else {}
        )
        actor_space, critic_only = _split_space(obs_space, list(cfg.critic_keys))
        self.actor_body = Body(actor_space, action_dim, cfg)
        self.critic_body = Body(obs_space, action_dim, cfg) if cfg.separate_critic else None
        critic_features = (self.critic_body or self.actor_body).out_features
        # a shared body with critic keys: the value head also reads an MLP over them
        self.privileged: DictEncoder | None = None
        self.privileged_size = sum(math.prod(sp.shape) for sp in critic_only.spaces.values())
        if critic_only.spaces and cfg.separate_critic and cfg.kind == "mlp":
            # the feed-forward learner hands both bodies one concatenated vector, the actor's
            raise ValueError(
                f"policy.critic_keys={list(cfg.critic_keys)!r} with policy.separate_critic=true needs policy.kind=lstm"
            )
        if critic_only.spaces and self.critic_body is None:
            self.privileged = DictEncoder(
                critic_only, cfg.image_encoder, cfg.image_features, cfg.mlp_hidden, 1, cfg.activation
            )
            critic_features += self.privileged.out_features
        self.actor = _head(self.actor_body.out_features, action_dim, gain=0.01)
        if cfg.init_action_mean:
            if len(cfg.init_action_mean) != action_dim:
                raise ValueError(
                    f"policy.init_action_mean={list(cfg.init_action_mean)!r} has {len(cfg.init_action_mean)} "
                    f"values; the action space has {action_dim} dimensions"
                )
            with torch.no_grad():
                self.actor.bias.copy_(torch.tensor([float(x) for x in cfg.init_action_mean]))
        self.critic = _head(critic_features, 1, gain=1.0)
        self.value_norm = ValueNormalizer() if cfg.normalize_value else None
        self.log_std = nn.Parameter(torch.full((action_dim,), float(cfg.init_log_std)))
        self._split = self.actor_body.state_shape[0] if cfg.separate_critic and cfg.kind == "lstm" else None

    @property
    def recurrent(self) -> bool:
        """Whether the policy has memory (learning must then keep steps in sequences)."""
        return self.cfg.kind == "lstm"

    def state_shape(self) -> tuple[int, ...]:
        """Per-environment recurrent state shape (`(0,)` for the MLP)."""
        shape = self.actor_body.state_shape
        if self._split is not None:
            return (2 * shape[0], *shape[1:])
        return shape

    def _states(self, state: Tensor) -> tuple[Tensor, Tensor]:
        """`[B, *state_shape]` -> (actor state, critic state); the same tensor when the body is shared."""
        if self._split is None:
            return state, state
        return state[:, : self._split], state[:, self._split :]

    def _normalize(self, obs: dict[str, Tensor]) -> dict[str, Tensor]:
        out = dict(obs)
        for k, norm in self.obs_norm.items():
            x = obs[k].float()
            out[k] = norm.normalize(x.reshape(x.shape[0], -1)).reshape(x.shape)
        return out

    @torch.no_grad()
    def update_obs_stats(self, obs: dict[str, Tensor], until: int = 0) -> None:
        """Adds `{key: [S, *shape]}` observations to the running statistics; with `until` > 0, only to
        those of sensors holding fewer than `until` samples (the others stay as they are)."""
        for k, norm in self.obs_norm.items():
            if until <= 0 or norm.count < until:
                norm.update(obs[k].float())

    def _value_out(self, normalized: Tensor) -> Tensor:
        return normalized if self.value_norm is None else self.value_norm.denormalize(normalized)

    def entropy(self) -> Tensor:
        """`[]` entropy of the (state-independent) action distribution."""
        return gaussian_entropy(self.log_std)

    @torch.inference_mode()
    def act(
        self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor, deterministic: bool = False
    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        """One step for a batch of environments.

        Args:
            obs: `{key: [B, *shape]}` raw observations.
            prev_action: `[B, A]` (zeros at episode starts).
            state: `[B, *state_shape()]` (zeros at episode starts).
            deterministic: use the mean action.

        Returns:
            action `[B, A]`, log_prob `[B]`, value `[B]` (in return units), next state.
        """
        return self._act(obs, prev_action, state, deterministic)

    def numpy_actable(self) -> bool:
        """Whether `NumpyActing` can stand in for `act`: a feed-forward policy on vector observations, the
        same for actor and critic."""
        return self.cfg.kind == "mlp" and not self.actor_body.encoder.image_keys and not self.cfg.critic_keys

    def traceable(self) -> bool:
        """Whether `traced_act` may be built now: every observation normaliser has statistics (before its
        first update it is the identity, a branch a trace would freeze)."""
        return all(norm.ready for norm in self.obs_norm.values())

    def traced_act(
        self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor
    ) -> Callable[[dict[str, Tensor], Tensor, Tensor], tuple[Tensor, Tensor, Tensor, Tensor]]:
        """`act` (sampling) compiled by TorchScript's tracer on example inputs (any batch size afterwards):
        the same numbers from the same random stream at about half the cost of a small policy's eager call
        on a CPU (the acting call is most of the collector's own time). It stays valid while parameters
        and statistics change in place (optimizer steps, PopArt, normaliser updates, `load_state_dict`);
        rebuild it after replacing tensors (`.to(device)`). Call it under `torch.inference_mode()`."""
        if not self.traceable():
            raise RuntimeError("traced_act before the observation statistics exist (see `traceable`)")
        keys = tuple(obs)
        step = _ActStep(self, keys)
        device = self.log_std.device
        cuda = [device.index or 0] if device.type == "cuda" else []
        # fork_rng: tracing runs the call once; its draw must not shift the random stream of the run
        with torch.random.fork_rng(devices=cuda), torch.inference_mode(), warnings.catch_warnings():
            # torch (2.13 here) warns that torch.jit is deprecated for torch.compile, which on a CPU needs a C++
            # toolchain and measured slower here (guards); the tracer is still the fastest acting path.
            warnings.simplefilter("ignore")
            traced = torch.jit.trace(
                step, (tuple(obs[k] for k in keys), prev_action, state), check_trace=False
            )

        def run(
            obs: dict[str, Tensor], prev_action: Tensor, state: Tensor
        ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
            return traced(tuple(obs[k] for k in keys), prev_action, state)

        return run

    def _act(
        self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor, deterministic: bool = False
    ) -> tuple[Tensor, Tensor, Tensor, Tensor]:
        obs = self._normalize(obs)
        actor_state, critic_state = self._states(state)
        core, next_actor = self.actor_body.step(obs, prev_action, actor_state)
        mean, log_std = self.actor(core), self.log_std
        noise = torch.zeros_like(mean) if deterministic else torch.randn_like(mean)
        action = mean + noise * log_std.exp()
        # log N(a; mean, std) summed over dims, written out: faster than torch.distributions per call
        log_prob = (-0.5 * noise.square() - log_std - 0.5 * math.log(2 * math.pi)).sum(-1)
        next_state = next_actor
        if self.critic_body is not None:
            core, next_critic = self.critic_body.step(obs, prev_action, critic_state)
            if self._split is not None:
                next_state = torch.cat([next_actor, next_critic], dim=1)
        elif self.privileged is not None:
            core = torch.cat([core, self.privileged(obs)], dim=-1)
        value = self._value_out(self.critic(core).squeeze(-1))
        return action, log_prob, value, next_state

    @torch.inference_mode()
    def value(self, obs: dict[str, Tensor], prev_action: Tensor, state: Tensor) -> Tensor:
        """`[B]` value (return units) of a batch of observations, to bootstrap truncations and rollout ends."""
        return self.act(obs, prev_action, state, deterministic=True)[2]

    def evaluate(
        self,
        obs: dict[str, Tensor],
        prev_action: Tensor,
        actions: Tensor,
        mask: Tensor,
        start_state: Tensor,
    ) -> tuple[Tensor, Tensor]:
        """Log-probs and normalised values of stored steps (the LSTM runs over the sequences padded to `mask`).

        Args:
            obs, prev_action, actions: step data `[S, ...]` in the row-major order of `mask`'s True entries.
            mask: `[L, K]` bool, True where sequence k has a step at time l; columns sorted by length,
                longest first (`minibatch.pack`'s layout).
            start_state: `[K, *state_shape()]` recurrent state at each sequence's first step.

        Returns:
            log_probs `[S]`, values `[S]` on the critic's normalised scale (see `value_target`).
        """
        obs = self._normalize(obs)
        actor_start, critic_start = self._states(start_state)
        core = self.actor_body.sequences(obs, prev_action, mask, actor_start)
        log_probs = self._log_probs(self.actor(core), actions)
        if self.critic_body is not None:
            core = self.critic_body.sequences(obs, prev_action, mask, critic_start)
        elif self.privileged is not None:
            core = torch.cat([core, self.privileged(obs)], dim=-1)
        return log_probs, self.critic(core).squeeze(-1)

    @torch.no_grad()
    def sequence_states(
        self, obs: dict[str, Tensor], prev_action: Tensor, mask: Tensor, start_state: Tensor
    ) -> Tensor:
        """The recurrent state before each stored step under the current weights, `[S, *state_shape()]`
        (arguments as `evaluate`'s): what a sequence cut at any step must start from for `evaluate` to
        give the numbers it gives on the whole sequence."""
        if not self.recurrent:
            raise RuntimeError("sequence_states is for recurrent policies; an MLP has no state")
        obs = self._normalize(obs)
        actor_start, critic_start = self._states(start_state)
        states = self.actor_body.sequence_states(obs, prev_action, mask, actor_start)
        if self._split is None:
            return states
        assert self.critic_body is not None
        return torch.cat([states, self.critic_body.sequence_states(obs, prev_action, mask, critic_start)], 1)

    @torch.no_grad()
    def normalize_obs(self, obs: dict[str, Tensor]) -> dict[str, Tensor]:
        """`{key: [S, *shape]}` raw -> normalised observations, as `evaluate_steps` takes them."""
        return self._normalize(obs)

    def vector_input(self, obs: dict[str, Tensor]) -> Tensor | None:
        """`[S, D]` normalised vector observations (from `normalize_obs`) as the MLP reads them, for
        `evaluate_steps(vector=...)`; None if there are none. With critic keys on a shared body, the
        critic-only observations follow the actor's."""
        actor = self.actor_body.encoder.vector(obs)
        if self.privileged is None:
            return actor
        critic_only = self.privileged.vector(obs)
        return critic_only if actor is None else torch.cat([actor, critic_only], dim=-1)

    def evaluate_steps(
        self, obs: dict[str, Tensor], actions: Tensor, vector: Tensor | None = None
    ) -> tuple[Tensor, Tensor]:
        """`evaluate` for a feed-forward policy (no sequences, no previous action, no state), on
        observations already normalised by `normalize_obs`: the statistics are fixed during a learning
        phase, so the learner normalises its steps once instead of once per minibatch. Same numbers.
        With `vector` (`vector_input`'s rows) `obs` needs only the image keys: the learner concatenates the
        vector observations once per learning phase too."""
        if self.recurrent:
            raise RuntimeError("evaluate_steps is for feed-forward policies; an LSTM needs evaluate")
        critic_vector = None
        if self.privileged is not None and vector is not None:
            cut = vector.shape[1] - self.privileged_size
            vector, critic_vector = (vector[:, :cut] if cut else None), vector[:, cut:]
        core = self.actor_body.encoder(obs, vector)
        log_probs = self._log_probs(self.actor(core), actions)
        if self.critic_body is not None:
            core = self.critic_body.encoder(obs, vector)
        elif self.privileged is not None:
            core = torch.cat([core, self.privileged(obs, critic_vector)], dim=-1)
        return log_probs, self.critic(core).squeeze(-1)

    def _log_probs(self, mean: Tensor, actions: Tensor) -> Tensor:
        """`[S]` log N(actions; mean, exp(log_std)) summed over action dimensions."""
        std = self.log_std.exp()
        return (-0.5 * ((actions - mean) / std).square() - self.log_std - 0.5 * math.log(2 * math.pi)).sum(-1)

    def value_target(self, returns: Tensor) -> Tensor:
        """Returns on the critic's normalised scale (what `evaluate`'s values are regressed onto)."""
        return returns if self.value_norm is None else self.value_norm.normalize(returns)

    @torch.no_grad()
    def update_value_stats(self, returns: Tensor) -> None:
        """PopArt: adds `[S]` returns to the value statistics, preserving the critic's outputs."""
        if self.value_norm is not None:
            self.value_norm.update(returns, self.critic)
