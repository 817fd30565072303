"""HAB episode sets: deterministic, held-out layouts only, scenario structure, reach, JSON round trip."""

from __future__ import annotations

import numpy as np
import pytest

from evaluation.episodes import ScenarioError, episode_file, generate_episodes
from skills.spawn import articulation_disks, reachable_from_free
from skills.splits import HELDOUT_LAYOUTS
from tpsrl.sim.episode import load_episodes, validate_episode
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.episodes import OPEN_SURFACES


def _start(spec, handle):
    return next(o for o in spec.objects if o.handle == handle)


def test_deterministic_and_heldout():
    a, b = generate_episodes("tidy_house", 6, seed=3), generate_episodes("tidy_house", 6, seed=3)
    assert [e.to_json() for e in a] == [e.to_json() for e in b]
    assert generate_episodes("tidy_house", 1, seed=4)[0].to_json() != a[0].to_json()
    assert all(e.layout in HELDOUT_LAYOUTS for e in a)
    assert len({len(e.objects) for e in generate_episodes("tidy_house", 12, seed=0)}) > 1  # clutter varies


def test_tidy_house_structure():
    for e in generate_episodes("tidy_house", 8, seed=1):
        assert len(e.targets) == 5
        arts = e.articulation_dict
        for t in e.targets:
            for rec in (_start(e, t.handle).receptacle, t.goal_receptacle):
                assert rec in OPEN_SURFACES or arts[rec] > 0.35  # containers only when open


def test_prepare_groceries_both_directions():
    for e in generate_episodes("prepare_groceries", 6, seed=2):
        assert len(e.targets) == 3 and e.articulation_dict["fridge"] > 1.5
        legs = {(_start(e, t.handle).receptacle, t.goal_receptacle) for t in e.targets}
        assert legs == {("kitchen_counter", "fridge"), ("fridge", "kitchen_counter")}


def test_set_table_closed_containers():
    for e in generate_episodes("set_table", 4, seed=0):
        bowl, fruit = e.targets
        assert _start(e, bowl.handle).type == "bowl" and _start(e, bowl.handle).receptacle == "drawer_0"
        assert _start(e, fruit.handle).receptacle == "fridge"
        assert {bowl.goal_receptacle, fruit.goal_receptacle} == {"dining_table"}
        assert e.articulation_dict == {"drawer_0": 0.0, "fridge": 0.0}


def test_valid_and_reachable():
    backend = MujocoBackend(depth={"mode": "none"})
    for name in ("tidy_house", "prepare_groceries"):
        for e in generate_episodes(name, 3, seed=5):
            validate_episode(e, backend.rules())
            disks = articulation_disks(e.layout, e.articulation_dict)
            for t in e.targets:
                assert reachable_from_free(e.layout, np.array(t.goal), disks)


def test_json_round_trip(tmp_path):
    path = episode_file("set_table", 3, 7, tmp_path)
    assert [e.to_json() for e in load_episodes(path)] == [
        e.to_json() for e in generate_episodes("set_table", 3, 7)
    ]
    assert episode_file("set_table", 3, 7, tmp_path) == path  # reused, not overwritten


def test_unknown_scenario():
    with pytest.raises(ScenarioError, match="accepted: \\['prepare_groceries', 'set_table', 'tidy_house'\\]"):
        generate_episodes("tidy_hose", 1)


def test_an_episode_the_simulator_rejects_is_drafted_again():
    """Tidy House seed 74's episode 85 was once drafted with the robot 4 cm into the fridge handle, which the
    base sampler's footprints leave out, and stopped every run of that set at its reset; now it is drafted
    again, and the episodes before it are as they were (loading one draws nothing from its generator)."""
    episodes = generate_episodes("tidy_house", 86, seed=74)
    MujocoBackend(depth={"mode": "none"}).reset(episodes[85])  # raised PlacementError before
    assert episodes[85].robot.x != 1.175 and episodes[84].episode_id == "tidy_house-74-0084"
