"""`tpsrl-eval-skills` end to end on two tiny shipped skills: the shipped `pick.pt` (episodes capped at
40 steps) and an untrained `pick_nobase` built the way `skills.ship` writes one (8 action dims, so it
only runs if its env is built without base movement)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import torch

from evaluation.skills_report import main, markdown_table
from skills.registry import make_env
from skills.ship import CHECKPOINT_DIR
from tpsrl.engine import checkpoint
from tpsrl.engine.envs import space_to_dict
from tpsrl.engine.policy import ActorCritic, PolicyConfig

SHIPPED_PICK = CHECKPOINT_DIR / "pick.pt"
NOBASE_STEPS = 1234
ARGS = ["episodes=2", "progress=false"]

pytestmark = pytest.mark.skipif(
    not SHIPPED_PICK.is_file(), reason="skills/checkpoints/pick.pt is not shipped"
)


def _ship_pick(directory: Path) -> None:
    data = checkpoint.load(SHIPPED_PICK)
    data["meta"]["skill_config"]["max_steps"] = 40  # a short test; evaluate builds the env from this
    checkpoint.atomic_save(data, directory / "pick.pt")


def _ship_untrained_nobase(directory: Path) -> None:
    """An untrained pick policy without base movement, in the shipped format (`skills.ship.ship`)."""
    torch.manual_seed(0)
    source = checkpoint.load(SHIPPED_PICK)
    env = make_env("pick", base_movement=False)
    # the shipped pick's architecture; its initial action mean (one value per base-movement action) does not fit
    policy_cfg = {**source["config"]["policy"], "init_action_mean": []}
    policy = ActorCritic(env.observation_space, env.action_space.shape[0], PolicyConfig(**policy_cfg))
    spaces = {"observation": space_to_dict(env.observation_space), "action": space_to_dict(env.action_space)}
    env.close()
    skill_config = {**source["meta"]["skill_config"], "base_movement": False, "max_steps": 20}
    path = checkpoint.export_policy(
        {
            "model": policy.state_dict(),
            "spaces": spaces,
            "meta": {"skill": "pick", "skill_config": skill_config},
            "counters": {"env_steps": NOBASE_STEPS, "updates": 1, "episodes": 4},
            "config": {"policy": policy_cfg},
        },
        directory / "pick_nobase.pt",
    )
    data = checkpoint.load(path)
    data["curve"] = [
        {"env_steps": 600, "success": 0.0, "return": -1.0, "episodes": 2.0, "seconds": 3.0},
        {"env_steps": NOBASE_STEPS, "success": 0.5, "return": 2.0, "episodes": 2.0, "seconds": 7.2},
    ]
    data["shipped"] = {"git_commit": None, "from_run": "test", "env_steps": NOBASE_STEPS}
    checkpoint.atomic_save(data, path)


def _run(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    return rc, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def shipped(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.set_num_threads(1)
    directory = tmp_path_factory.mktemp("shipped")
    _ship_pick(directory)
    _ship_untrained_nobase(directory)
    return directory


@pytest.fixture(scope="module")
def report(shipped: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any], Path]:
    out_dir = tmp_path_factory.mktemp("out")
    rc, stdout, _ = _run([f"checkpoint_dir={shipped}", f"out_dir={out_dir}", *ARGS])
    assert rc == 0
    last = json.loads(stdout.strip().splitlines()[-1])
    return stdout, last, out_dir


def test_last_line_has_every_skill_with_its_interval(report: tuple[str, dict[str, Any], Path]) -> None:
    _, last, out_dir = report
    assert set(last) == {"skills", "run_dir"} and Path(last["run_dir"]).parent == out_dir
    assert set(last["skills"]) == {"pick", "pick_nobase"}
    for name, trained in (
        ("pick", checkpoint.trained_env_steps(checkpoint.load(SHIPPED_PICK))),  # its lineage's
        ("pick_nobase", NOBASE_STEPS),
    ):
        r = last["skills"][name]
        assert set(r) == {"success", "episodes", "env_steps_trained", "ci"}
        assert r["episodes"] == 2 and r["env_steps_trained"] == trained
        lo, hi = r["ci"]
        assert 0.0 <= lo <= r["success"] <= hi <= 1.0 and r["success"] in (0.0, 0.5, 1.0)


def test_table_and_results_json(report: tuple[str, dict[str, Any], Path]) -> None:
    stdout, last, _ = report
    run_dir = Path(last["run_dir"])
    table = (run_dir / "skills.md").read_text()
    assert table in stdout
    rows = {line.split("|")[1].strip(): line for line in table.splitlines()[2:]}
    assert set(rows) == {"pick", "pick_nobase"}
    steps = checkpoint.trained_env_steps(checkpoint.load(SHIPPED_PICK))
    assert rows["pick"].startswith(f"| pick | yes | {steps:,} | ") and " h | " in rows["pick"]
    assert "| 90% (" in rows["pick"]
    assert rows["pick_nobase"].startswith("| pick_nobase | no | 1,234 | 0.0 h |")
    results = json.loads((run_dir / "results.json").read_text())
    for name, cap in (("pick", 40), ("pick_nobase", 20)):  # the step caps of the checkpoints' configs
        r = results["skills"][name]
        assert r["split"] == "heldout" and r["mean_steps"] <= cap
        assert sum(r["failures"].values()) + round(r["success"] * 2) == 2  # each episode won or has a cause
        assert r["target"] == 0.9 and r["target_met"] == (r["success"] >= 0.9)
    assert len(results["skills"]["pick_nobase"]["curve"]) == 2 and results["config"]["episodes"] == 2


def test_one_figure_per_skill(report: tuple[str, dict[str, Any], Path]) -> None:
    run_dir = Path(report[1]["run_dir"])
    assert sorted(p.name for p in run_dir.glob("*.png")) == ["curve_pick.png"]  # both variants in one
    png = (run_dir / "curve_pick.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 10_000


def test_a_second_run_gets_a_new_directory(shipped: Path, report: tuple[str, dict[str, Any], Path]) -> None:
    _, first, out_dir = report
    before = (Path(first["run_dir"]) / "results.json").read_text()
    rc, stdout, _ = _run([f"checkpoint_dir={shipped}", f"out_dir={out_dir}", "skills=pick_nobase", *ARGS])
    assert rc == 0
    second = json.loads(stdout.strip().splitlines()[-1])
    assert second["run_dir"] != first["run_dir"] and set(second["skills"]) == {"pick_nobase"}
    assert (Path(first["run_dir"]) / "results.json").read_text() == before


def test_bad_input_is_one_line_and_exit_2(shipped: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    empty = tmp_path / "empty"
    empty.mkdir()
    misnamed = tmp_path / "misnamed"
    misnamed.mkdir()
    shutil.copy(shipped / "pick_nobase.pt", misnamed / "place.pt")
    cases = {
        "colour: Key 'colour' not in": [f"checkpoint_dir={shipped}", "colour=red"],
        "skills: 'place' is not shipped": [f"checkpoint_dir={shipped}", "skills=place"],
        "is empty (no *.pt)": [f"checkpoint_dir={empty}"],
        "does not exist": [f"checkpoint_dir={tmp_path / 'nothing'}"],
        "holds 'pick_nobase' (by its meta), not 'place'": [f"checkpoint_dir={misnamed}"],
        "episodes: 0 must be >= 1": [f"checkpoint_dir={shipped}", "episodes=0"],
        "force_measure: 'max' not accepted; use one of ['peak', 'sum']": [
            f"checkpoint_dir={shipped}",
            "force_measure=max",
        ],
        "nobase_spawn: 'near' not accepted; use one of ['within', 'navmesh', 'habitat2']": [
            f"checkpoint_dir={shipped}",
            "nobase_spawn=near",
        ],
    }
    for expected, argv in cases.items():
        rc, stdout, stderr = _run([*argv, f"out_dir={out}"])
        assert rc == 2 and stdout == "" and len(stderr.strip().splitlines()) == 1, (argv, stderr)
        assert stderr.startswith("tpsrl-eval-skills: ") and expected in stderr, (argv, stderr)
    assert "accepted keys: ['episodes', 'skills'," in _run(["colour=red"])[2]
    assert "accepted: ['pick', 'pick_nobase']" in _run([f"checkpoint_dir={shipped}", "skills=place"])[2]
    assert not out.exists()  # nothing is written before every input is checked


def test_force_and_spawn_rules_reach_the_skills_tasks(
    shipped: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import evaluation.skills_report as report_module

    seen: list[dict[str, Any]] = []
    real = report_module.evaluate

    def spy(*args: Any, **kwargs: Any) -> Any:
        seen.append(kwargs)
        return real(*args, **kwargs)

    monkeypatch.setattr(report_module, "evaluate", spy)
    rc, _, _ = _run([f"checkpoint_dir={shipped}", f"out_dir={tmp_path}", "force_measure=peak", *ARGS])
    assert rc == 0 and [k.get("force_measure") for k in seen] == ["peak", "peak"]
    seen.clear()
    rc, _, _ = _run([f"checkpoint_dir={shipped}", f"out_dir={tmp_path}", *ARGS])
    assert rc == 0 and [k.get("force_measure") for k in seen] == [None, None]  # each skill's own
    assert [k.get("spawn_rule") for k in seen] == [None, None]
    seen.clear()
    rc, stdout, _ = _run([f"checkpoint_dir={shipped}", f"out_dir={tmp_path}", "nobase_spawn=habitat2", *ARGS])
    # pick (with base movement) keeps its own starts; pick_nobase starts where Habitat 2.0's per-skill task does
    assert rc == 0 and [k.get("spawn_rule") for k in seen] == [None, "habitat2"]
    record = json.loads(
        (Path(json.loads(stdout.strip().splitlines()[-1])["run_dir"]) / "results.json").read_text()
    )
    assert record["config"]["nobase_spawn"] == "habitat2"


def test_target_column() -> None:
    base = {
        "base_movement": True,
        "env_steps_trained": 10,
        "training_hours": None,
        "ci_low": 0.7,
        "ci_high": 0.95,
        "episodes": 20,
        "mean_steps": 80.0,
        "failures": {"timeout": 1, "force": 3},
    }
    table = markdown_table(
        {
            "open_drawer": {**base, "success": 0.85, "target": 0.85, "target_met": True},
            "close_fridge_nobase": {
                **base,
                "base_movement": False,
                "success": 0.8,
                "target": 0.85,
                "target_met": False,
            },
        }
    )
    assert (
        "| open_drawer | yes | 10 | - | 85.0% [70.0%, 95.0%] | 20 | 80 | force 3, timeout 1 | 85% (met) |"
        in table
    )
    assert "| close_fridge_nobase | no |" in table and "| 85% (not met) |" in table
