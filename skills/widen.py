"""A wider LSTM policy from a trained one: `python -m skills.warmstart <src> <out> --widen H`.

It keeps the observations and actions and gives an LSTM policy H hidden units per layer where it had fewer (the paper's skills: 512; ours 128): the old units keep their weights and read only what they
read before, the new units read everything through freshly initialised weights, and what reads the new
units (the old units' gates, the next layer, the heads) starts at weight 0, so the written policy acts and
values exactly as the source did while the new units already change with the inputs (weights into them
at 0 would leave them at 0 and their gradients too) and training can put them to use. Why: the shipped
place fits its own training layouts no better than the held-out ones (87.4% against 84.25%) after 8M
steps at 128 units, where the scripted place places 96.5%.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

import torch

from tpsrl.engine.policy import ActorCritic, PolicyConfig

from .warmstart import WarmStartError, _spaces, load_source, write_derived

LSTM_GATES = 4
"""nn.LSTM's weights stack its input, forget, cell and output gates' rows, `hidden` rows each."""


def _widened_rows(old: torch.Tensor, fresh: torch.Tensor, hidden: int, wide: int) -> torch.Tensor:
    """An LSTM weight or bias of `wide` units per gate from `old` (`hidden` per gate): each gate's first
    `hidden` rows the old ones (their columns past the old width, where there are more, 0), the rest `fresh`'s."""
    out = fresh.clone()
    for g in range(LSTM_GATES):
        rows, src = slice(g * wide, g * wide + hidden), old[g * hidden : (g + 1) * hidden]
        if out.dim() == 1:  # a bias
            out[rows] = src
        else:
            out[rows] = 0.0
            out[rows, : src.shape[1]] = src
    return out


def widened(source: str | Path, out: str | Path, hidden: int) -> Path:
    """Writes the policy of `source` (an LSTM skill) with `hidden` units per LSTM layer; it acts and values
    as the source does (the new units' outgoing weights 0)."""
    out = Path(out)
    data, skill, fields = load_source(source, out, nav=True)
    pcfg = PolicyConfig(**data["config"]["policy"])
    if pcfg.kind != "lstm" or pcfg.separate_critic or hidden <= pcfg.hidden_size:
        raise WarmStartError(
            f"{source}: --widen takes an LSTM policy with a shared body and more units than it has "
            f"(policy.kind {pcfg.kind!r}, separate_critic {pcfg.separate_critic}, hidden_size "
            f"{pcfg.hidden_size}; asked {hidden})"
        )
    wide_cfg = PolicyConfig(**{**data["config"]["policy"], "hidden_size": hidden})
    _, obs_space, action_space = _spaces(skill, fields)
    with torch.random.fork_rng():  # seeded new units, the caller's RNG untouched
        torch.manual_seed(0)
        fresh = ActorCritic(obs_space, int(action_space.shape[0]), wide_cfg).state_dict()
    old, model, narrow = data["model"], {}, pcfg.hidden_size
    for key, new in fresh.items():
        src = old.get(key)
        if src is None:
            raise WarmStartError(f"{source}: policy parameter {key!r} not found")
        if src.shape == new.shape:
            model[key] = src.clone()
        elif ".core.lstm." in key:
            model[key] = _widened_rows(src, new, narrow, hidden)
        elif key in ("actor.weight", "critic.weight"):
            model[key] = torch.zeros_like(new)
            model[key][:, :narrow] = src
        else:
            raise WarmStartError(
                f"{source}: policy parameter {key!r} does not carry over ({tuple(src.shape)} -> {tuple(new.shape)})"
            )
    return write_derived(
        data,
        out,
        source,
        {"derived": "widened", "hidden_size": hidden},
        fields,
        model=model,
        config={**data["config"], "policy": asdict(wide_cfg)},
    )
