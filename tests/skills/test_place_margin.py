"""Place's reward margin (`skill.place_margin`): the object->goal reward keeps counting inside goal_tol."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from skills.place import PlaceConfig, PlaceTask
from skills.registry import make_env

GOAL = np.array([1.0, 0.0, 0.8])


def _dist_rewards(margin: float, path: list[float]) -> list[float]:
    """The "dist" term at each step while the held object moves to these distances from its goal."""
    task = PlaceTask(PlaceConfig(place_margin=margin))
    backend = SimpleNamespace(
        held="obj",
        arm_force=0.0,
        arm_force_peak=0.0,
        base_pose=(0.0, 0.0, 0.0),
        ee_pos_world=np.array([0.5, 0.0, 1.0]),
    )
    spec = SimpleNamespace(targets=(SimpleNamespace(handle="obj", goal=tuple(GOAL), goal_receptacle=None),))
    where = {"pos": GOAL + [path[0], 0.0, 0.0]}
    backend.object_pos = lambda name: where["pos"]
    task.reset(backend, spec)
    out = []
    for d in path:
        where["pos"] = GOAL + [d, 0.0, 0.0]
        step = task.step(backend, {})
        assert not step.terminated
        out.append(step.reward_terms["dist"])
    return out


def test_the_margin_rewards_bringing_the_object_deeper_inside_the_tolerance() -> None:
    path = [0.30, 0.20, 0.16, 0.12, 0.08, 0.04]
    hab, margin = _dist_rewards(0.0, path), _dist_rewards(0.1, path)
    assert hab[:3] == pytest.approx([0.0, 0.10, 0.04])
    assert margin[:3] == pytest.approx(hab[:3])  # the same outside goal_tol
    assert hab[3:] == [0.0, 0.0, 0.0]  # HAB's: nothing once within goal_tol (0.15)
    assert margin[3:] == pytest.approx([0.04, 0.04, 0.0])  # counted down to goal_tol - margin = 0.05


@pytest.mark.parametrize("bad", [-0.01, 0.15, 0.3])
def test_a_margin_outside_the_tolerance_is_refused_naming_the_field(bad: float) -> None:
    with pytest.raises(ValueError, match="place_margin"):
        make_env("place", place_margin=bad)
