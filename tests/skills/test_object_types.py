"""`skill.object_types` weights the object types a training run draws; evaluations and shipped skills
draw every type alike."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from skills.config import acting_config
from skills.evaluate import evaluate
from skills.registry import make_config, make_env
from skills.ship import CHECKPOINT_DIR
from tpsrl.engine import checkpoint
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco.objects import OBJECT_TYPES

TALL = ("cracker_box", "mustard_bottle", "sugar_box")


def _specs(skill: str, n: int, seed: int = 3, **fields: object) -> list[EpisodeSpec]:
    env = make_env(skill, seed=0, **fields)
    rng = np.random.default_rng(seed)
    specs = [env.task.episodes.sample(env.backend, rng) for _ in range(n)]
    env.close()
    return specs


def _types(skill: str, n: int, **fields: object) -> Counter[str]:
    return Counter(o.type for s in _specs(skill, n, **fields) for o in s.objects)


def test_listed_types_are_the_only_ones_drawn_and_repeats_weight_them() -> None:
    assert set(_types("place", 8, object_types=["mug"])) == {"mug"}
    assert set(_types("open_drawer", 4, object_types=["apple"], clutter=(2, 2))) == {"apple"}
    c = _types("place", 40, object_types=["mug", "mug", "mug", "apple"])
    assert set(c) == {"mug", "apple"} and c["mug"] > 2 * c["apple"]


def test_the_default_is_every_type_listed_once() -> None:
    assert _specs("place", 6, seed=5) == _specs("place", 6, seed=5, object_types=list(OBJECT_TYPES))
    assert _specs("place", 6, seed=5) != _specs("place", 6, seed=5, object_types=list(reversed(OBJECT_TYPES)))
    assert len(_types("place", 60)) > 10


@pytest.mark.parametrize("bad", [["mug", "teapot"], []])
def test_an_unknown_or_empty_list_names_the_field(bad: list[str]) -> None:
    with pytest.raises(ValueError, match=r"skill.object_types: .* must list object types"):
        make_config("place", object_types=bad)


def test_a_shipped_skill_and_an_evaluation_draw_every_type(tmp_path: Path) -> None:
    assert acting_config(make_config("place", object_types=TALL * 3 + ("mug",))).object_types is None
    source = CHECKPOINT_DIR / "place_nobase.pt"
    data = checkpoint.read(source)
    data["meta"]["skill_config"]["object_types"] = list(TALL)
    tall = tmp_path / "tall.pt"
    checkpoint.atomic_save(data, tall)
    assert evaluate(str(tall), 3).episode_set == evaluate(str(source), 3).episode_set
