"""Fuzzing: any episode JSON and any override string either works or raises the project's own error type
(`EpisodeSpecError`, `ConfigError`) naming the field, never anything else."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from skills.train import compose, train_config
from tests.reliability.episode_cases import backend, base_episode
from tpsrl.engine.config import ConfigError, TrainConfig, check_runtime, validate
from tpsrl.sim.episode import EpisodeSpec, EpisodeSpecError

pytestmark = pytest.mark.timeout(600)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for k, v in node.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += _paths(v, (*prefix, i))
    return out


PATHS = _paths(base_episode()) + [("bogus",), ("robot", "bogus"), ("objects", 0, "bogus")]
PLACEMENT = ("starts inside", "on the robot", "MuJoCo rejected")


def _mutate(path: tuple, value: Any) -> dict[str, Any]:
    d = base_episode()
    node: Any = d
    for p in path[:-1]:
        node = node[p]
    node[path[-1]] = value
    return d


@FUZZ
@given(path=st.sampled_from(PATHS), value=json_values)
def test_any_mutated_episode_works_or_names_the_field(path: tuple, value: Any) -> None:
    episode = _mutate(path, value)
    text = json.dumps(episode)  # what a file would hold (NaN and Infinity included)
    try:
        backend().reset(EpisodeSpec.from_json(text))
    except EpisodeSpecError as e:
        message, field = str(e), path[0]
        named = str(field) in message or any(p in message for p in PLACEMENT)
        assert message.startswith("episode") and named, (path, value, message)


@FUZZ
@given(text=st.text(max_size=60) | st.binary(max_size=60).map(lambda b: b.decode("latin-1")))
def test_any_episode_text_is_parsed_or_an_episode_error(text: str) -> None:
    try:
        EpisodeSpec.from_json(text)
    except EpisodeSpecError as e:
        assert str(e).startswith("episode"), str(e)


def _fields(cls: type = TrainConfig, prefix: str = "") -> list[str]:
    out = []
    for f in dataclasses.fields(cls):
        factory = f.default_factory
        if callable(factory) and dataclasses.is_dataclass(factory):
            out += _fields(factory, f"{prefix}{f.name}.")  # type: ignore[arg-type]
        else:
            out.append(f"{prefix}{f.name}")
    return out


FIELDS = _fields()
keys = (
    st.sampled_from(FIELDS)
    | st.sampled_from(FIELDS).map(lambda k: "+" + k[:-1])
    | st.from_regex(r"\+[a-z]{1,6}\.[a-z_]{1,8}", fullmatch=True)
)
values = (
    st.integers(-(10**6), 10**6).map(str)
    | st.floats().map(str)
    | st.sampled_from(["", "null", "true", "abc", "[1,2]", "{a:1}", "'x'", "${oops}", "1e309", "-0"])
    | st.text(alphabet="abc019.-_:/[]{},'\" ", max_size=10)
)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(key=keys, value=values)
def test_any_override_works_or_is_a_config_error_naming_it(key: str, value: str) -> None:
    override = f"{key}={value}"
    try:
        cfg, _ = train_config(compose([override]))  # what `run` does before training
        validate(cfg)
        check_runtime(cfg.run)
    except ConfigError as e:
        message, name = str(e), key.lstrip("+")
        named = name in message or name.split(".")[0] in message or override in message
        assert named and "\n" not in message, (override, message)
