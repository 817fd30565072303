"""Bad episodes, episode files and actions: each gives an error of the project's own type naming the
file or field; a state MuJoCo silently resets sets `physics_unstable`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
import pytest

from tests.reliability.episode_cases import BAD_EPISODES, backend, base_episode, with_
from tpsrl.sim.env import MAX_RESAMPLES, ActionError, EnvConfig, RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec, EpisodeSpecError, PlacementError, load_episodes

pytestmark = pytest.mark.timeout(300)


def reset_with(episode: Any) -> None:
    backend().reset(EpisodeSpec.from_dict(episode))


def test_the_base_episode_is_valid() -> None:
    reset_with(base_episode())


@pytest.mark.parametrize(("name", "make", "expected"), BAD_EPISODES, ids=[c[0] for c in BAD_EPISODES])
def test_bad_episode_is_an_episode_error_naming_the_field(name: str, make: Any, expected: list[str]) -> None:
    with pytest.raises(EpisodeSpecError) as err:
        reset_with(make())
    for part in expected:
        assert part in str(err.value), str(err.value)


BAD_FILES: list[tuple[str, bytes | None, str]] = [
    ("empty list", b"[]", "holds no episodes"),
    ("truncated JSON", b'[{"layout": 0, "robot": {"x": 1', "not valid JSON"),
    ("empty file", b"", "empty"),
    ("whitespace", b"  \n", "empty"),
    ("binary", bytes(range(256)), "not a text file"),
    ("not a list", b'{"layout": 0}', "expected a JSON list"),
    ("bad item", b'[{"layout": 0, "robot": {"x": "a", "y": 1}}]', "[0].robot.x"),
    ("missing", None, "cannot be read"),
]


@pytest.mark.parametrize(("name", "content", "expected"), BAD_FILES, ids=[c[0] for c in BAD_FILES])
def test_bad_episodes_file_names_the_file(
    tmp_path: Path, name: str, content: bytes | None, expected: str
) -> None:
    path = tmp_path / "eps.json"
    if content is not None:
        path.write_bytes(content)
    with pytest.raises(EpisodeSpecError) as err:
        load_episodes(path)
    assert str(path) in str(err.value) and expected in str(err.value), str(err.value)


@pytest.fixture(scope="module")
def env() -> RearrangeEnv:
    return RearrangeEnv(EnvConfig(depth={"mode": "none"}, observations=("joint", "ee_pos")))


@pytest.mark.parametrize(
    "action",
    ["go", b"go", {"arm_action": [0.0] * 7}, None, ["a"] * 11, [0.0] * 3, [float("nan")] * 11, [[0.0]]],
)
def test_bad_action_is_an_action_error(env: RearrangeEnv, action: Any) -> None:
    env.reset(seed=0)
    with pytest.raises(ActionError, match="action: expected 11 finite values"):
        env.step(action)


def test_step_before_reset_is_a_clear_error() -> None:
    fresh = RearrangeEnv(EnvConfig(depth={"mode": "none"}, observations=("joint",)))
    with pytest.raises(gym.error.ResetNeeded, match="before reset"):
        fresh.step(np.zeros(11))


def test_mujoco_resetting_a_huge_state_sets_physics_unstable(env: RearrangeEnv) -> None:
    env.reset(seed=0)
    env.backend.data.qvel[:3] = 1e12  # MuJoCo resets the data on the next step, with only a warning
    _, _, terminated, _, info = env.step(np.zeros(11, np.float32))
    assert info.get("physics_unstable") is True and terminated
    assert info["episode_stats"]["physics_unstable"] == 1.0


def test_a_sampled_overlapping_episode_is_sampled_again(
    env: RearrangeEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad, good = (EpisodeSpec.from_dict(d) for d in (with_("robot", {"x": 0.05, "y": 4.0}), base_episode()))
    drawn = iter([bad, bad, good])
    monkeypatch.setattr(env.task.episodes, "sample", lambda backend, rng: next(drawn))
    _, info = env.reset()
    assert info["resampled"] == 2 and env.backend.spec == good


def test_a_given_overlapping_episode_is_an_error_not_replaced(env: RearrangeEnv) -> None:
    with pytest.raises(PlacementError, match="the robot starts inside wall"):
        env.reset(options={"episode": with_("robot", {"x": 0.05, "y": 4.0})})


def test_sampling_gives_up_after_max_resamples(env: RearrangeEnv, monkeypatch: pytest.MonkeyPatch) -> None:
    bad = EpisodeSpec.from_dict(with_("robot", {"x": 0.05, "y": 4.0}))
    monkeypatch.setattr(env.task.episodes, "sample", lambda backend, rng: bad)
    with pytest.raises(EpisodeSpecError, match=f"{MAX_RESAMPLES} sampled episodes in a row rejected"):
        env.reset()
