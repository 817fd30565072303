"""The study's outputs: a Figure-6-style PNG (one panel per scenario) and a Markdown table."""

from __future__ import annotations

import json

import pytest
from PIL import Image

from evaluation.plot import plot_stages
from evaluation.study import ConfigError, markdown_table, parse_study


def _rec(agent, rates):
    return {
        "agent": agent,
        "episodes": 10,
        "full_success": rates[-1],
        "full_success_ci": [0.1, 0.9],
        "stage_names": ["pick_1", "place_1"],
        "stage_success": rates,
        "failures": {"pick/timeout": 3},
    }


def test_plot_and_table(tmp_path):
    records = {
        "tidy_house": [_rec("tp_spa", [0.9, 0.8]), _rec("tp_srl_nonav", [0.5, 0.2])],
        "set_table": [_rec("tp_spa", [1.0, 0.7])],
    }
    png = plot_stages(records, tmp_path / "fig.png")
    w, h = Image.open(png).size
    assert w > h > 100
    table = markdown_table(records)
    assert (
        "| tidy_house | tp_srl_nonav | 10 | 20% [10, 90] | pick_1 50%, place_1 20% | pick/timeout x3 |"
        in table
    )


def test_study_config_errors():
    assert parse_study(["episodes=3"]).episodes == 3
    for bad in (["episode=3"], ["episodes=0"]):
        try:
            parse_study(bad)
        except ConfigError as e:
            assert "episodes" in str(e)
        else:
            raise AssertionError(bad)


def test_fill_scripted_runs_a_learned_variant_with_the_shipped_skills(tmp_path, capsys):
    from evaluation.policies import checkpoint_path
    from evaluation.run import SCENARIO_SKILLS
    from evaluation.study import main

    skills = SCENARIO_SKILLS["set_table"]  # its no-base open_fridge and open_drawer are not shipped
    shipped = [s for s in skills if checkpoint_path(s, base_movement=False).exists()]
    if len(shipped) == len(skills):
        pytest.skip("every no-base skill of the scenario is shipped: nothing to fill")
    args = [
        "episodes=1",
        "scenarios=set_table",
        "agents=tp_srl_nobase",
        "processes=1",
        "progress=false",
        f"out_dir={tmp_path}",
        f"table={tmp_path / 't.md'}",
        f"figure={tmp_path / 'f.png'}",
    ]
    assert main(args) == 0
    assert "skipped set_table / tp_srl_nobase" in capsys.readouterr().out
    assert main([*args, "fill_scripted=true"]) == 0
    label = f"tp_srl_nobase (learned: {','.join(shipped) or 'none'}; rest scripted)"
    assert label in (tmp_path / "t.md").read_text()


def test_reuse_takes_a_finished_run_and_rejects_a_foreign_one(tmp_path, capsys):
    from evaluation.run import main as eval_main
    from evaluation.study import main

    run = tmp_path / "runs"
    common = ["episodes=1", "scenarios=prepare_groceries", "agents=tp_spa", "processes=1", "progress=false"]
    one = ["episodes=1", "scenario=prepare_groceries", "agent=tp_spa", "processes=1", "progress=false"]
    assert eval_main([*one, f"out_dir={run}"]) == 0
    first = next(p for p in run.rglob("config.json")).parent
    ran = json.loads((first / "summary.json").read_text())["env_steps_per_second"]
    lines = (first / "results.jsonl").read_text()
    out = tmp_path / "again"
    capsys.readouterr()
    args = [
        *common,
        f"out_dir={out}",
        f"reuse={first}",
        f"table={tmp_path / 't.md'}",
        f"figure={tmp_path / 'f.png'}",
    ]
    assert main(args) == 0
    assert (first / "results.jsonl").read_text() == lines  # read back, not run again
    assert "| prepare_groceries | tp_spa | 1 |" in (tmp_path / "t.md").read_text()
    assert not list(out.rglob("results.jsonl"))  # no fresh evaluation
    record = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert record["env_steps"] == 0 and record["env_steps_per_second"] is None  # nothing stepped now
    assert record["reused_throughput"]["prepare_groceries/tp_spa"]["env_steps_per_second"] == ran  # as it ran
    assert main([*common[:-2], "agents=tp_srl", f"out_dir={out}", f"reuse={first}"]) == 2
    assert "reuse" in capsys.readouterr().err
    assert main([*common, f"out_dir={out}", f"reuse={tmp_path}"]) == 2


def test_a_run_with_checkpoints_of_its_own_is_labelled_with_them():
    from evaluation.study import _label

    assert _label("tp_srl", "set_table", []) == "tp_srl"
    got = _label(
        "tp_srl_nobase", "set_table", [], "open_fridge:docs/results/runs/of_h2/open_fridge_nobase.pt"
    )
    assert got == "tp_srl_nobase [open_fridge: of_h2/open_fridge_nobase.pt]"
    both = _label("tp_srl", "set_table", ["pick"], "place:a/b.pt, open_drawer:c/d.pt")
    assert both.startswith("tp_srl (learned: ") and both.endswith("[place: a/b.pt; open_drawer: c/d.pt]")
