"""`tpsrl-bench skills`: table and the JSON contract of its last line."""

from __future__ import annotations

import json

import pytest

from skills.bench import main


def test_skills_bench_json_contract(capsys) -> None:
    assert main(["--skills", "nav_to_obj", "--train", "1", "--heldout", "1", "--quick", "--json"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    res = json.loads(last)
    for key in ("scripted_success", "random_success", "episodes", "sps_state", "sps_depth64"):
        assert "nav_to_obj" in res[key]
    assert res["random_success"]["nav_to_obj"] == 0.0
    assert isinstance(res["failed_causes"]["nav_to_obj"], dict)
    assert res["sps_state"]["nav_to_obj"] > 0


def test_skills_bench_rejects_unknown_skill() -> None:
    with pytest.raises(SystemExit):
        main(["--skills", "fly"])
