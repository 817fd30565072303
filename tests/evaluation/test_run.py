"""tpsrl-eval: last-line JSON, worker processes, results kept on Ctrl-C and resumed, run dirs never reused."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import evaluation.run as run
from evaluation.config import parse_overrides
from evaluation.metrics import EpisodeResult


def _fake_result(index: int) -> dict:
    return EpisodeResult(
        index,
        f"e{index}",
        3,
        "tidy_house",
        "tp_spa",
        index % 2 == 0,
        True,
        True,
        10,
        ["pick_1"],
        [True],
        {"pick_1": 3},
        20,
        0,
    ).to_dict()


def test_interrupt_keeps_results_and_resume_runs_the_rest(tmp_path, monkeypatch):
    calls: list[int] = []

    def fake(index: int, spec_json: str) -> dict:
        if index == 2 and not calls.count(-1):
            calls.append(-1)
            raise KeyboardInterrupt
        calls.append(index)
        return _fake_result(index)

    monkeypatch.setattr(run, "_run_episode", fake)
    monkeypatch.setattr(run, "_init_worker", lambda cfg, d: None)
    cfg = parse_overrides(["episodes=4", "processes=1", f"out_dir={tmp_path}", "progress=false"])
    record, run_dir = run.evaluate(cfg)
    assert record["interrupted"] and record["episodes"] == 2 and calls == [0, 1, -1]
    record2, run_dir2 = run.evaluate(parse_overrides([*_args(tmp_path, 4), f"resume={run_dir}"]))
    assert run_dir2 == run_dir and not record2["interrupted"] and calls[3:] == [2, 3]
    lines = (run_dir / "results.jsonl").read_text().splitlines()
    assert sorted(json.loads(x)["index"] for x in lines) == [0, 1, 2, 3]
    assert record2["full_success"] == 0.5
    _, fresh = run.evaluate(parse_overrides(_args(tmp_path, 4)))
    assert fresh != run_dir  # a new run never reuses a directory
    with pytest.raises(run.RunDirError, match="agent='tp_spa'"):
        run.evaluate(
            parse_overrides(
                [*_args(tmp_path, 4), f"resume={run_dir}", "agent=tp_srl_nonav", "scripted=pick,place"]
            )
        )


def test_resume_keeps_the_chain_settings_of_the_finished_episodes(tmp_path, monkeypatch):
    """A resumed run chains its remaining episodes as its finished ones were; a run saved before a chain
    field existed had that field's legacy value (chain.reapproach_retries: false)."""
    monkeypatch.setattr(run, "_run_episode", lambda index, spec_json: _fake_result(index))
    monkeypatch.setattr(run, "_init_worker", lambda cfg, d: None)
    _, run_dir = run.evaluate(parse_overrides([*_args(tmp_path, 2), "chain.max_replans=3"]))
    with pytest.raises(run.RunDirError, match="chain.max_replans=3"):
        run.evaluate(parse_overrides([*_args(tmp_path, 3), f"resume={run_dir}"]))
    saved = json.loads((run_dir / "config.json").read_text())
    del saved["chain"]["reapproach_retries"]  # as written before the field existed
    (run_dir / "config.json").write_text(json.dumps(saved))
    with pytest.raises(run.RunDirError, match="chain.reapproach_retries=False"):
        run.evaluate(parse_overrides([*_args(tmp_path, 3), f"resume={run_dir}", "chain.max_replans=3"]))
    record, _ = run.evaluate(
        parse_overrides(
            [
                *_args(tmp_path, 3),
                f"resume={run_dir}",
                "chain.max_replans=3",
                "chain.reapproach_retries=false",
            ]
        )
    )
    assert record["episodes"] == 3


def test_a_finished_run_reads_back_without_the_checkpoints_it_ran_with(tmp_path, monkeypatch):
    """The HAB table is regenerated from the runs kept in docs/ (`tpsrl-eval-study reuse=...`): a run whose
    episodes are all finished needs none of its checkpoints, which may have lived in a run dir that is gone;
    one with an episode left to run still refuses to start without them."""
    import shutil

    from evaluation.policies import MissingCheckpointError

    monkeypatch.setattr(run, "_run_episode", lambda index, spec_json: _fake_result(index))  # skills built
    pick = tmp_path / "gone" / "pick.pt"
    pick.parent.mkdir()
    shutil.copy(Path(run.__file__).parents[1] / "skills" / "checkpoints" / "pick.pt", pick)
    learned = ["agent=tp_srl_nonav", f"checkpoints=pick:{pick}"]
    _, run_dir = run.evaluate(parse_overrides([*_args(tmp_path, 2), *learned]))
    shutil.rmtree(pick.parent)
    record, again = run.evaluate(parse_overrides([*_args(tmp_path, 2), *learned, f"resume={run_dir}"]))
    assert again == run_dir and record["episodes"] == 2 and record["env_steps_run"] == 0
    with pytest.raises(MissingCheckpointError, match="pick"):
        run.evaluate(parse_overrides([*_args(tmp_path, 3), *learned, f"resume={run_dir}"]))


def test_every_shipped_checkpoint_is_checked_and_acts_without_its_training_files(tmp_path, monkeypatch):
    """A shipped skill's config names the start banks it was trained from, which a fresh clone need not hold
    (CI once failed on a pick trained from a bank in runs/dev/): loading, checking and acting read none. Every
    shipped file, and one whose bank is surely missing (the shipped pick's, renamed)."""
    import torch

    from evaluation.agent import HierarchicalAgent
    from evaluation.policies import SkillSources

    shipped = sorted((Path(run.__file__).parents[1] / "skills" / "checkpoints").glob("*.pt"))
    data = torch.load(
        shipped[[p.stem for p in shipped].index("pick")], map_location="cpu", weights_only=False
    )
    data["meta"]["skill_config"].update(start_bank="no/such/bank.json", start_bank_prob=0.5)
    missing = tmp_path / "pick.pt"
    torch.save(data, missing)
    monkeypatch.chdir(tmp_path)  # where no relative bank path resolves
    for path in [*shipped, missing]:
        skill = path.stem.removesuffix("_nobase")
        sources = SkillSources({skill: str(path)}, {skill: not path.stem.endswith("_nobase")})
        run._check_learned(sources, (skill,), "capped")
        _, env_cfg = HierarchicalAgent("tp_srl", sources)._policy(skill)
        assert env_cfg.actions, path


def _args(tmp_path, n):
    return [f"episodes={n}", "processes=1", f"out_dir={tmp_path}", "progress=false"]


def test_main_two_processes_last_line_json(tmp_path, capsys):
    code = run.main(
        [
            "scenario=prepare_groceries",
            "episodes=2",
            "processes=2",
            f"out_dir={tmp_path}",
            "progress=false",
            "chain.max_skill_calls=2",
        ]
    )
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 0
    last = json.loads(out[-1])
    for key in ("scenario", "agent", "episodes", "full_success", "stage_names", "stage_success"):
        assert key in last
    assert last["episodes"] == 2 and len(last["stage_success"]) == 6 and last["processes"] == 2
    assert "FULL TASK" in "\n".join(out)


def test_missing_checkpoints_fail_before_running(tmp_path, capsys):
    code = run.main(["agent=tp_srl", f"out_dir={tmp_path}", f"checkpoint_dir={tmp_path}/ck"])
    err = capsys.readouterr().err
    assert code == 2 and "nav_to_obj.pt is missing" in err and "tpsrl-train skill=pick" in err
    assert not any(tmp_path.iterdir())  # no run directory was made


def test_video_of_first_episode(tmp_path):
    code = run.main(
        [
            "scenario=set_table",
            "episodes=1",
            "processes=1",
            f"out_dir={tmp_path}",
            "progress=false",
            "videos=1",
            "chain.max_skill_calls=1",
            "chain.nav_steps=40",
        ]
    )
    assert code == 0
    (video,) = tmp_path.glob("*/videos/episode_0000.mp4")
    assert video.stat().st_size > 1000


def test_unreadable_checkpoint_fails_before_running(tmp_path, capsys):
    bogus = tmp_path / "pick.pt"
    bogus.write_text("not a checkpoint")
    code = run.main(
        ["agent=tp_srl_nonav", "scripted=place", f"checkpoints=pick:{bogus}", f"out_dir={tmp_path}/out"]
    )
    assert code == 2 and str(bogus) in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_learned_skill_in_two_worker_processes_does_not_hang(tmp_path, capsys):
    """The parent loads torch to check the checkpoint; forked workers used to hang in their first torch op."""
    scripted = "nav_to_obj,place,open_fridge,close_fridge,open_drawer,close_drawer"
    shipped = Path(__file__).resolve().parents[2] / "skills" / "checkpoints" / "pick.pt"
    code = run.main(
        [
            "agent=tp_srl",
            f"scripted={scripted}",
            f"checkpoints=pick:{shipped}",
            "episodes=2",
            "processes=2",
            f"out_dir={tmp_path}",
            "progress=false",
            "chain.max_skill_calls=2",
        ]
    )
    last = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert code == 0 and last["episodes"] == 2 and last["processes"] == 2


DEPTH_NAV = (
    Path(__file__).resolve().parents[2] / "docs" / "results" / "runs" / "nav_to_obj_depth16" / "checkpoints"
)


def test_a_learned_skill_with_depth_sets_the_episode_depth(tmp_path, capsys):
    """nav trained on 16x16 head depth runs without chain.depth: the episode renders what it was trained on."""
    scripted = "pick,place,open_fridge,close_fridge,open_drawer,close_drawer"
    code = run.main(
        [
            "agent=tp_srl",
            f"scripted={scripted}",
            f"checkpoints=nav_to_obj:{DEPTH_NAV / 'latest.pt'}",
            "episodes=1",
            "processes=1",
            f"out_dir={tmp_path}",
            "progress=false",
            "chain.max_skill_calls=1",
            "chain.skill_steps=5",
            "videos=1",
            "chain.sample=true",
        ]
    )
    assert code == 0, capsys.readouterr().err
    code = run.main(
        [
            "agent=tp_srl",
            f"scripted={scripted}",
            f"checkpoints=nav_to_obj:{DEPTH_NAV / 'latest.pt'}",
            "episodes=1",
            f"out_dir={tmp_path}/b",
            "chain.depth=64",
        ]
    )
    assert code == 2 and "chain.depth: 64" in capsys.readouterr().err


def test_a_run_after_one_without_depth_in_the_same_process_renders_its_depth(tmp_path, capsys):
    """A study runs its agents one after another; with one process (or one episode) they run in the calling
    process, whose worker state outlives a run: tp_spa's env without depth must not be reused by an agent
    whose learned nav sees head depth (failed with "depth.mode is 'none'" before)."""
    scripted = "pick,place,open_fridge,close_fridge,open_drawer,close_drawer"
    short = ["episodes=1", "processes=1", "progress=false", "chain.max_skill_calls=1", "chain.skill_steps=5"]
    assert run.main(["agent=tp_spa", f"out_dir={tmp_path}/a", *short]) == 0, capsys.readouterr().err
    nav = f"checkpoints=nav_to_obj:{DEPTH_NAV / 'latest.pt'}"
    assert run.main(["agent=tp_srl", f"scripted={scripted}", nav, f"out_dir={tmp_path}/b", *short]) == 0, (
        capsys.readouterr().err
    )


def test_the_episode_runs_at_the_chain_arm_speed_and_names_skills_trained_at_another(tmp_path, capsys):
    """chain.arm_speed sets the episode env's arm; the shipped skills (all trained with the capped arm) are
    named when they run under the fast one (nav, which does not move the arm, is not); an unknown speed is refused naming the key."""
    short = ["episodes=1", "processes=1", "progress=false", "chain.max_skill_calls=1", "chain.skill_steps=5"]
    scripted = "scripted=place,open_fridge,close_fridge,open_drawer,close_drawer"
    assert run.main(["agent=tp_srl", scripted, "chain.arm_speed=fast", f"out_dir={tmp_path}/a", *short]) == 0
    err = capsys.readouterr().err
    assert "chain.arm_speed=fast" in err and "'pick': 'capped'" in err and "nav_to_obj" not in err
    fast = [env for (kind, _, speed), env in run._ENVS.items() if kind == "env" and speed == "fast"]
    assert fast and all(env.backend.arm_speed == "fast" for env in fast)
    assert run.main(["agent=tp_srl", scripted, f"out_dir={tmp_path}/b", *short]) == 0
    assert "arm speed" not in capsys.readouterr().err
    with pytest.raises(ValueError, match=r"chain\.arm_speed: 'slow' not accepted"):
        parse_overrides(["chain.arm_speed=slow"])
