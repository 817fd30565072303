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


def test_episodes_rejected_at_reset_are_skipped_and_counted(monkeypatch) -> None:
    from types import SimpleNamespace

    from skills import bench
    from skills.scripted.envs import Outcome
    from tpsrl.sim.episode import EpisodeSpecError

    results = iter(
        [
            EpisodeSpecError("episode: the robot starts inside fridge_door"),
            Outcome(True, 10, 1.0, True, 2, {}),
            Outcome(False, 300, 0.0, False, 5, {"fail/timeout": 1.0, "fail/force": 0.0}),
        ]
    )

    def fake_rollout(env, policy, seed):
        r = next(results)
        if isinstance(r, Exception):
            raise r
        return r

    monkeypatch.setattr(bench, "make_skill_env", lambda *a, **k: SimpleNamespace(close=lambda: None))
    monkeypatch.setattr(bench, "rollout", fake_rollout)
    rate, failed, causes = bench.success_rate("pick", "train", 3, True, 0)
    assert rate == 0.5 and failed == [5]
    assert causes == {"spawn_error": 1, "timeout": 1}
