"""`python -m evaluation.trace`: per-call traces of skills inside HAB episodes."""

from __future__ import annotations

import json

import pytest

from evaluation.trace import CallTrace, main, summarise, trace

pytestmark = pytest.mark.timeout(300)


def test_trace_records_every_call_of_the_traced_skills() -> None:
    traces = trace("tidy_house", "tp_spa", 1, 0, ("nav_to_obj", "pick"))
    assert {t.skill for t in traces} == {"nav_to_obj", "pick"}
    assert all(t.steps > 0 and t.moved >= 0.0 and t.force_steps <= t.steps for t in traces)
    navs = [t for t in traces if t.skill == "nav_to_obj"]
    assert sum(t.moved for t in navs) > 1.0  # the scripted nav drives
    assert not any(t.stuck for t in traces if t.ok)


def test_summary_counts_starts_outcomes_and_stuck_failures() -> None:
    ts = [
        CallTrace("pick", True, 0.1, False, steps=200, ok=False, stuck=True),
        CallTrace("pick", False, 0.3, False, steps=50, ok=True),
        CallTrace("nav_to_obj", True, 2.0, True, steps=300, ok=False),
    ]
    s = summarise(ts)
    assert s["pick"] == {
        "calls": 2,
        "ok": 1,
        "near_furniture": 1,
        "ok_near": 0,
        "ok_clear": 1,
        "held": 0,
        "failed": 1,
        "stuck": 1,
        "median_heading_error": pytest.approx(0.2),
    }
    assert s["nav_to_obj"]["held"] == 1 and s["nav_to_obj"]["stuck"] == 0


def test_cli_ends_with_json_and_refuses_no_episodes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--agent", "tp_spa", "--episodes", "1", "--skills", "pick", "--json"]) == 0
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert set(last["summary"]) == {"pick"} and last["calls"]
    with pytest.raises(SystemExit):
        main(["--episodes", "0"])
