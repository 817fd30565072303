"""`tpsrl-bench learn`: a real tpsrl run on a gymnasium task, the results file that lets a long
benchmark continue, and its errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tpsrl.engine import bench_learn


def test_tpsrl_run_trains_and_evaluates_its_final_policy() -> None:
    r = bench_learn.run_tpsrl(bench_learn.TASKS["Pendulum-v1"], 2048, seed=0, overrides={})
    assert -2000.0 < r["return"] <= 0.0 and r["seconds"] > 0.0  # Pendulum's returns are negative


def test_results_file_skips_finished_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: Any
) -> None:
    calls: list[int] = []

    def fake(task: Any, steps: int, seed: int, overrides: dict) -> dict[str, float]:
        calls.append(seed)
        return {"return": -100.0 * (seed + 1), "seconds": 1.0}

    monkeypatch.setattr(bench_learn, "run_tpsrl", fake)
    results = tmp_path / "runs.jsonl"
    argv = [
        "--tasks",
        "Pendulum-v1",
        "--seeds",
        "2",
        "--steps",
        "64",
        "--only",
        "tpsrl",
        "--json",
        "--results",
        str(results),
    ]
    assert bench_learn.main(argv) == 0 and calls == [0, 1]
    assert bench_learn.main(argv) == 0 and calls == [0, 1]  # nothing run again
    row = json.loads(capsys.readouterr().out.strip().splitlines()[-1])["tasks"]["Pendulum-v1"]
    assert row["tpsrl_return_mean"] == -150.0 and row["seeds"] == 2 and row["env_steps"] == 64
    assert len(results.read_text().splitlines()) == 2
    results.write_text(results.read_text() + "not json\n")
    with pytest.raises(SystemExit, match="line 3 is not a run record"):
        bench_learn.main(argv)


def test_unknown_task_is_named() -> None:
    with pytest.raises(SystemExit):
        bench_learn.main(["--tasks", "Walker9-v0"])
