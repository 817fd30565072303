"""Shared memory between the trainer and its environment workers, described once.

A `ShmSpec` maps a field name to its per-environment shape and dtype. `allocate` makes one raw block for
all environments (leading axis N) at start-up; every process then takes numpy views into it with
`views`. Nothing is pickled per step: workers write step results into their row and signal readiness.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import gymnasium as gym
import numpy as np

ShmSpec = Mapping[str, tuple[tuple[int, ...], np.dtype]]

_ALIGN = 64


@dataclass(frozen=True)
class Field:
    """One field of the block: its byte offset and full shape `[N, *shape]`."""

    offset: int
    shape: tuple[int, ...]
    dtype: np.dtype


def layout(spec: ShmSpec, num_envs: int) -> tuple[dict[str, Field], int]:
    """Byte layout of `spec` for `num_envs` rows; returns (fields, total bytes), 64-byte aligned."""
    fields: dict[str, Field] = {}
    offset = 0
    for name, (shape, dtype) in spec.items():
        dtype = np.dtype(dtype)
        full = (num_envs, *shape)
        fields[name] = Field(offset, full, dtype)
        nbytes = int(np.prod(full, dtype=np.int64)) * dtype.itemsize
        offset += -(-nbytes // _ALIGN) * _ALIGN
    return fields, max(offset, _ALIGN)


def allocate(spec: ShmSpec, num_envs: int, ctx: Any | None = None) -> Any:
    """One zeroed shared block for the whole spec (a `multiprocessing.RawArray`, or a bytearray if ctx
    is None, for the serial in-process mode)."""
    _, nbytes = layout(spec, num_envs)
    if ctx is None:
        return bytearray(nbytes)
    return ctx.RawArray("b", nbytes)


def views(block: Any, spec: ShmSpec, num_envs: int) -> dict[str, np.ndarray]:
    """Numpy views `[N, *shape]` of every field of `block`; writes go straight to shared memory."""
    fields, _ = layout(spec, num_envs)
    buf = memoryview(block).cast("B")
    return {
        name: np.ndarray(f.shape, dtype=f.dtype, buffer=buf, offset=f.offset) for name, f in fields.items()
    }


def step_spec(
    obs_space: gym.spaces.Dict, action_space: gym.spaces.Box
) -> dict[str, tuple[tuple[int, ...], Any]]:
    """The engine's per-environment fields: current and final (pre-reset) observations, action, reward,
    termination flags."""
    spec: dict[str, tuple[tuple[int, ...], Any]] = {}
    for key, space in obs_space.spaces.items():
        spec[f"obs/{key}"] = (tuple(space.shape), np.dtype(space.dtype))
    for key, space in obs_space.spaces.items():
        spec[f"final_obs/{key}"] = (tuple(space.shape), np.dtype(space.dtype))
    spec["action"] = (tuple(action_space.shape), np.dtype(np.float32))
    spec["reward"] = ((), np.dtype(np.float32))
    spec["terminated"] = ((), np.dtype(np.bool_))
    spec["truncated"] = ((), np.dtype(np.bool_))
    return spec
