"""`python -m evaluation.compare`: two HAB runs paired by episode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation.compare import CompareError, compare, main
from evaluation.metrics import EpisodeResult


def _run(path: Path, outcomes: list[bool], prefix: str = "tidy_house-0") -> Path:
    path.mkdir()
    lines = [
        json.dumps(
            EpisodeResult(
                index=i,
                episode_id=f"{prefix}-{i:04d}",
                layout=0,
                scenario="tidy_house",
                agent="tp_srl",
                full_success=ok,
                goal_reached=ok,
                stopped=ok,
                steps=10,
                stage_names=["pick_1", "place_1"],
                stage_success=[True, ok],
                stage_steps={},
                plan_length=4,
                replans=0,
                failed_skill=None if ok else "place",
                failure=None if ok else "timeout",
            ).to_dict()
        )
        for i, ok in enumerate(outcomes)
    ]
    (path / "results.jsonl").write_text("\n".join(lines) + '\n{"index": 99, "trunc')  # a run cut off mid-line
    return path


def test_compare_pairs_episodes_by_index(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = _run(tmp_path / "a", [True] * 12 + [False] * 4 + [True] * 4)
    b = _run(tmp_path / "b", [False] * 12 + [True] * 4 + [True] * 3)  # one episode fewer: 19 in common
    r = compare(a, b)
    assert r["episodes"] == 19 and (r["gained"], r["lost"]) == (12, 4)
    assert r["mcnemar_p"] == pytest.approx(0.0768, abs=1e-4)
    assert r["a"]["full_success"] == pytest.approx(15 / 19) and r["b"]["stages"]["pick_1"] == 1.0
    assert r["b"]["failures"] == {"place/timeout": 12}
    assert main([str(a), str(b), "--json"]) == 0
    out = capsys.readouterr().out
    assert "alone succeeded in 12" in out and json.loads(out.strip().splitlines()[-1])["lost"] == 4


def test_compare_refuses_other_episode_sets_and_missing_runs(tmp_path: Path) -> None:
    a = _run(tmp_path / "a", [True, False])
    with pytest.raises(CompareError, match="another episode set"):
        compare(a, _run(tmp_path / "b", [True, True], prefix="set_table-0"))
    with pytest.raises(CompareError, match="no results.jsonl"):
        compare(a, tmp_path)
    with pytest.raises(SystemExit):
        main([str(a), str(tmp_path / "nowhere")])
