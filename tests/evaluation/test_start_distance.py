"""`python -m evaluation.start_distance`: a run's first stage binned by the robot's start distance."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from evaluation.episodes import generate_episodes
from evaluation.metrics import EpisodeResult
from evaluation.start_distance import StartDistanceError, by_distance, first_stage, main, start_distance
from tpsrl.sim.episode import save_episodes


def _run(path: Path, reached: list[bool], keep_set: bool) -> list:
    """A 3-episode Tidy House run whose robots start 0.5, 2.5 and 9 m from the first object (east of it)."""
    specs = generate_episodes("tidy_house", 3, 0)
    moved = []
    for spec, d in zip(specs, (0.5, 2.5, 9.0), strict=True):
        obj = next(o for o in spec.objects if o.handle == spec.targets[0].handle)
        moved.append(replace(spec, robot=replace(spec.robot, x=obj.pos[0] + d, y=obj.pos[1])))
    path.mkdir()
    cfg = {"scenario": "tidy_house", "episodes": 3, "seed": 0, "episodes_file": ""}
    (path / "config.json").write_text(json.dumps(cfg))
    if keep_set:
        save_episodes(path / "tidy_house_3_seed0.json", moved)
    rows = [
        EpisodeResult(
            i,
            s.episode_id,
            s.layout,
            "tidy_house",
            "tp_srl_nonav",
            False,
            False,
            False,
            10,
            ["pick_1", "place_1"],
            [ok, False],
            {},
            4,
            0,
            "place",
            "timeout",
        ).to_dict()
        for i, (s, ok) in enumerate(zip(moved, reached, strict=True))
    ]
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return moved


def test_bins_count_each_episode_by_its_start_distance(tmp_path: Path, capsys) -> None:
    specs = _run(tmp_path / "a", [True, True, False], keep_set=True)
    assert [round(start_distance(s), 6) for s in specs] == [0.5, 2.5, 9.0]
    rows = by_distance(first_stage([tmp_path / "a"]), (0.0, 2.0, 4.0))
    assert [(r["episodes"], r["success"]) for r in rows] == [(1, 1.0), (1, 1.0), (1, 0.0)]
    assert math.isinf(rows[-1]["to_m"])
    assert main([str(tmp_path / "a"), "--bins", "0,2,4", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out["reached"] == 2 and out["bins"][-1]["to_m"] is None


def test_a_run_kept_without_its_episode_set_is_read_against_the_set_generated_again(tmp_path: Path) -> None:
    # docs/ keeps config.json and results.jsonl only: the set is generated again from the run's seed (the
    # original distances, not the ones this test moved, since no file says otherwise)
    _run(tmp_path / "a", [True, False, False], keep_set=False)
    original = generate_episodes("tidy_house", 3, 0)
    pairs = first_stage([tmp_path / "a"])
    assert [d for d, _ in pairs] == pytest.approx([start_distance(s) for s in original])
    assert not (tmp_path / "a" / "tidy_house_3_seed0.json").exists()  # nothing written


def test_bad_input_is_refused_with_the_field(tmp_path: Path) -> None:
    with pytest.raises(StartDistanceError, match="increasing"):
        by_distance([(1.0, True)], (2.0, 1.0))
    with pytest.raises(StartDistanceError, match="no results.jsonl"):
        first_stage([tmp_path])
    _run(tmp_path / "a", [True, True, True], keep_set=True)
    cfg = json.loads((tmp_path / "a" / "config.json").read_text())
    (tmp_path / "a" / "config.json").write_text(json.dumps({**cfg, "seed": 5}))  # another set's episodes
    with pytest.raises(StartDistanceError, match="not in the run's episode set"):
        first_stage([tmp_path / "a"])


def test_detour_is_the_way_over_the_line_and_splits_the_bins(tmp_path: Path, capsys) -> None:
    from evaluation.start_distance import detour
    from tpsrl.sim.mujoco.geodesic import GeodesicDistance

    specs = _run(tmp_path / "a", [True, False, True], keep_set=True)
    for spec in specs:
        obj = next(o for o in spec.objects if o.handle == spec.targets[0].handle)
        geo = GeodesicDistance()
        geo.reset(spec.layout, np.array(obj.pos[:2]))
        way = geo((spec.robot.x, spec.robot.y))
        assert detour(spec) == (None if way is None else pytest.approx(way / start_distance(spec)))
    assert main([str(tmp_path / "a"), "--bins", "0,2,4", "--detour", "1.15", "--json"]) == 0
    out = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert out["detour"] == 1.15
    for k in range(3):  # every episode falls in one of the two groups, in its own distance bin
        assert out["straight"][k]["episodes"] + out["detoured"][k]["episodes"] == out["bins"][k]["episodes"]
    straight = {round(start_distance(s), 6) for s in specs if (r := detour(s)) is not None and r < 1.15}
    assert sum(b["episodes"] for b in out["straight"]) == len(straight)
    with pytest.raises(SystemExit):
        main([str(tmp_path / "a"), "--detour", "0"])
    assert "--detour: 0.0 must be > 0" in capsys.readouterr().err
