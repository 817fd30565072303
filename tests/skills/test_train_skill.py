"""`tpsrl-train skill=<name>` end to end: a short run writes a checkpoint that records the skill, and
`load_skill_policy` rebuilds it and runs it for an episode; wrong uses get clear errors."""

from __future__ import annotations

import json
from pathlib import Path

import mujoco
import numpy as np
import pytest
import torch

from skills.evaluate import evaluate, wilson_interval
from skills.learned import SkillCheckpointError, load_skill_policy
from skills.registry import make_env
from skills.train import compose, run
from tpsrl.engine import checkpoint as ckpt
from tpsrl.engine.config import ConfigError

TINY = [
    "engine.num_envs=2",
    "engine.rollout_steps=64",
    "engine.serial=true",
    "ppo.num_minibatches=2",
    "ppo.epochs=2",
    "run.total_steps=256",
    "run.wandb=disabled",
    "run.progress=false",
    "policy=mlp",
]


@pytest.fixture(scope="module")
def pick_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    torch.set_num_threads(1)
    run_dir = tmp_path_factory.mktemp("pick") / "run"
    result = run(compose(["skill=pick", "skill.base_movement=false", f"run.dir={run_dir}", *TINY]))
    assert result.counters.env_steps == 256
    return run_dir


def test_checkpoint_records_skill_and_spaces(pick_run: Path) -> None:
    data = ckpt.read(pick_run)
    assert data["meta"]["skill"] == "pick" and data["meta"]["skill_config"]["base_movement"] is False
    assert "obj_start_sensor" in data["spaces"]["observation"]["dict"]
    assert data["spaces"]["action"]["shape"] == [8]  # arm 7 + grip 1: no base with base movement off
    (start,) = data["provenance"]  # one start, from this git checkout
    assert len(start["git_commit"]) == 40 and start["env_steps"] == 0 and isinstance(start["dirty"], bool)
    assert start["packages"]["numpy"] == np.__version__ and start["packages"]["torch"] == torch.__version__


def test_load_skill_policy_runs_an_episode(pick_run: Path) -> None:
    skill = load_skill_policy(pick_run, skill="pick")
    assert skill.skill == "pick" and skill.env_steps_trained == 256
    env = make_env("pick", base_movement=False, split="heldout", max_steps=20)
    obs, _ = env.reset(seed=3)
    skill.reset(env)
    for _ in range(20):
        action = skill.act(obs, env)
        assert action.shape == (8,) and np.all(np.abs(action) <= 1.0)
        obs, _, terminated, truncated, _ = env.step(action)
        if terminated or truncated or skill.done():
            break
    assert terminated or truncated or skill.done()
    env.close()


def test_exported_policy_is_small_and_loads(pick_run: Path, tmp_path: Path) -> None:
    path = ckpt.export_policy(ckpt.read(pick_run), tmp_path / "pick.pt")
    assert ckpt.read(path)["provenance"] == ckpt.read(pick_run)["provenance"]
    full = (pick_run / "checkpoints" / ckpt.LATEST).stat().st_size
    assert path.stat().st_size < full / 2  # no optimizer state, no RNG
    assert load_skill_policy(path).skill == "pick"


def test_wrong_uses_are_named(pick_run: Path, tmp_path: Path) -> None:
    with pytest.raises(SkillCheckpointError, match="is for skill 'pick', not 'place'"):
        load_skill_policy(pick_run, skill="place")
    with pytest.raises(SkillCheckpointError, match="does not exist"):
        load_skill_policy(tmp_path / "nothing")
    env = make_env("pick")  # base movement on: 10 action dims, the policy has 8
    with pytest.raises(SkillCheckpointError, match="acts in 8 dimensions"):
        load_skill_policy(pick_run).reset(env)
    env.close()
    with pytest.raises(ConfigError, match="unknown skill 'pik'"):
        run(compose(["skill=pick", "skill.name=pik", f"run.dir={tmp_path / 'r'}", *TINY]))
    with pytest.raises(ConfigError, match="skill.colour: unknown field"):
        run(compose(["skill=pick", "+skill.colour=red", f"run.dir={tmp_path / 'r2'}", *TINY]))


def test_resume_with_another_skill_config_is_refused(pick_run: Path) -> None:
    overrides = ["skill=pick", f"run.dir={pick_run}", "run.resume=true", *TINY]
    with pytest.raises(ConfigError, match="was started with"):
        run(compose([*overrides, "skill.base_movement=true"]))


def test_wilson_interval_hand_computed() -> None:
    # 5/10: centre (0.5 + 0.19208) / 1.38416 = 0.5; half 1.96 * sqrt(0.025 + 0.0096040) / 1.38416 = 0.26340
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)  # never below 0, and not a degenerate [0, 0]
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_evaluate_a_checkpoint_on_heldout_layouts(pick_run: Path) -> None:
    r = evaluate(str(pick_run), episodes=2, max_steps=15)
    assert r.skill == "pick" and r.split == "heldout" and r.episodes == 2 and r.env_steps_trained == 256
    assert 0.0 <= r.ci_low <= r.success <= r.ci_high <= 1.0 and r.mean_steps <= 15
    assert sum(r.failures.values()) + round(r.success * 2) == 2  # every episode succeeded or has a cause


def test_sampled_evaluation_is_seeded_per_episode(pick_run: Path) -> None:
    a = evaluate(str(pick_run), episodes=2, max_steps=15, sample=True)
    torch.manual_seed(123)  # whatever the global state: each episode is seeded by its own seed
    b = evaluate(str(pick_run), episodes=2, max_steps=15, sample=True)
    mean = evaluate(str(pick_run), episodes=2, max_steps=15)
    assert a.sampled and not mean.sampled and a.mean_return == b.mean_return
    assert a.mean_return != mean.mean_return  # a barely trained policy's samples are not its mean


def test_a_smaller_noise_scale_samples_nearer_the_mean(pick_run: Path) -> None:
    one = evaluate(str(pick_run), episodes=2, max_steps=15, sample=True)
    small = evaluate(str(pick_run), episodes=2, max_steps=15, sample=True, noise_scale=1e-6)
    mean = evaluate(str(pick_run), episodes=2, max_steps=15)
    assert small.noise_scale == 1e-6 and one.noise_scale == 1.0
    assert abs(small.mean_return - mean.mean_return) < abs(one.mean_return - mean.mean_return)


def test_evaluate_cli_refuses_a_bad_noise_scale(pick_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skills.evaluate import main

    for args, message in (
        (["--sample", "--noise-scale", "0"], "--noise-scale: 0.0 must be a finite number > 0"),
        (["--noise-scale", "0.5"], "--noise-scale: 0.5 scales sampled actions; give --sample too"),
    ):
        with pytest.raises(SystemExit):
            main([str(pick_run), "--episodes", "1", *args])
        assert message in capsys.readouterr().err


def test_evaluate_cli_acts_on_one_torch_thread(pick_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Batch-1 acting with several intra-op threads was ~100x slower on a busy machine (CNN policies).
    from skills.evaluate import main

    before = torch.get_num_threads()
    torch.set_num_threads(2)
    try:
        assert main([str(pick_run), "--episodes", "1"]) == 0
        assert torch.get_num_threads() == 1
    finally:
        torch.set_num_threads(before)
    assert "success" in capsys.readouterr().out


def test_evaluate_cli_sets_task_fields(pick_run: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from skills.evaluate import main

    assert main([str(pick_run), "--episodes", "1", "--json", "--set", "max_steps=3"]) == 0
    out = capsys.readouterr().out
    record = json.loads(out.strip().splitlines()[-1])
    assert "max_steps=3" in out and record["mean_steps"] <= 3
    # what a rerun must match to give the same outcomes: the commit and the versions beside it
    assert (
        len(record["code"]["git_commit"]) == 40 and record["code"]["packages"]["mujoco"] == mujoco.__version__
    )
    for bad in ("bogus=1", "max_steps", "start_bank=x.json"):
        with pytest.raises(SystemExit):
            main([str(pick_run), "--episodes", "1", "--set", bad])
        assert "--set" in capsys.readouterr().err


def test_evaluate_against_compares_the_same_episodes(
    pick_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skills.evaluate import main

    # the run's preset spawns near furniture half the time, 0.32 m clear; the scripted pick's task: 0, 0.4 m
    aligned = ["--set", "near_furniture_prob=0.5", "--set", "spawn_clearance=0.32"]
    assert main([str(pick_run), "--episodes", "2", "--json", "--against", "scripted:pick", *aligned]) == 0
    out = capsys.readouterr().out
    record = json.loads(out.strip().splitlines()[-1])
    a, b = record["outcomes"], record["against"]["outcomes"]
    assert len(a) == len(b) == 2 and record["against"]["policy"] == "scripted:pick"
    assert record["gained"] == sum(x and not y for x, y in zip(a, b, strict=True)) and "McNemar" in out
    differ = record["settings_differ"]  # the run's task and the scripted pick's default task
    assert all(a != b for a, b in differ.values()) and "near_furniture_prob" not in differ
    assert ("own task settings" in out) == bool(differ)
    with pytest.raises(SystemExit):
        main([str(pick_run), "--episodes", "1", "--against", "scripted:place"])
    assert "--against" in capsys.readouterr().err


def test_evaluate_against_refuses_policies_that_drew_other_episodes(
    pick_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skills.evaluate import main

    same = evaluate("scripted:pick", 2, spawn_max_dist=2.0).episode_set
    assert same == evaluate("scripted:pick", 2, spawn_max_dist=2.0).episode_set
    assert same != evaluate("scripted:pick", 2, spawn_max_dist=4.0).episode_set
    with pytest.raises(SystemExit):  # the same seeds, but each task spawns the robot its own way
        main([str(pick_run), "--episodes", "1", "--against", "scripted:pick"])
    err = capsys.readouterr().err
    assert "drew different episodes" in err and "near_furniture_prob" in err


def test_evaluate_pools_episode_sets_from_several_seeds(
    pick_run: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from skills.evaluate import main

    short = ["--set", "max_steps=15", "--json"]
    assert main([str(pick_run), "--episodes", "1", "--seed", "1000000,1000001", *short]) == 0
    out = capsys.readouterr().out
    two_sets = json.loads(out.strip().splitlines()[-1])
    one_set = evaluate(str(pick_run), episodes=2, seed=1_000_000, max_steps=15)  # the same two episodes
    assert two_sets["episodes"] == 2 and two_sets["outcomes"] == one_set.outcomes
    assert two_sets["mean_return"] == pytest.approx(one_set.mean_return)
    assert two_sets["failures"] == one_set.failures and two_sets["mean_steps"] == one_set.mean_steps
    assert [s["seed"] for s in two_sets["sets"]] == [1_000_000, 1_000_001] and "on each set" in out
    for seeds, message in (
        ("1000000,1000001", "share episodes"),  # 2 episodes each: 1000001 is in the first set
        ("5,5", "listed once"),
        ("1000000,x", "integer seeds"),
    ):
        with pytest.raises(SystemExit):
            main([str(pick_run), "--episodes", "2", "--seed", seeds])
        err = capsys.readouterr().err
        assert "--seed" in err and message in err


def test_against_names_the_task_settings_two_policies_are_evaluated_under() -> None:
    from skills.evaluate import setting_differences

    # a pick trained reading the contacts summed (the legacy force rule) against today's default, peak
    assert setting_differences("pick", {"force_measure": "sum"}, {}, {}) == {"force_measure": ("sum", "peak")}
    assert setting_differences("pick", {"force_measure": "sum"}, {}, {"force_measure": "peak"}) == {}
    assert setting_differences("pick", {"start_bank": "x.json"}, {}, {}) == {}  # not a task setting


def test_mcnemar_and_set_values() -> None:
    from skills.evaluate import field_value, mcnemar

    assert mcnemar([True] * 12 + [False] * 4, [False] * 12 + [True] * 4) == (
        12,
        4,
        pytest.approx(0.0768, abs=1e-4),
    )
    assert mcnemar([True, False], [True, False]) == (0, 0, 1.0)
    with pytest.raises(ValueError, match="same episodes"):
        mcnemar([True], [True, False])
    assert field_value("false") is False and field_value("True") is True and field_value("0.05") == 0.05
    assert field_value("docs/x.json") == "docs/x.json"


def test_ship_names_by_base_movement_and_never_overwrites(pick_run: Path, tmp_path: Path) -> None:
    from skills.ship import ShipError, main, ship, training_curve

    path = ship(pick_run, tmp_path)
    assert path == tmp_path / "pick_nobase.pt"  # trained without base movement
    data = ckpt.read(path)
    assert data["shipped"]["env_steps"] == 256 and len(data["shipped"]["git_commit"]) == 40
    assert data["curve"] == training_curve(pick_run / "metrics.jsonl")
    assert load_skill_policy(path, skill="pick").env_steps_trained == 256
    with pytest.raises(ShipError, match="exists"):
        ship(pick_run, tmp_path)
    assert main([str(pick_run), "--dir", str(tmp_path)]) == 2  # refused, one-line error
    before = path.read_bytes()
    assert main([str(pick_run), "--dir", str(tmp_path), "--force"]) == 0
    (backup,) = tmp_path.glob("pick_nobase.pt.bak-*")
    assert backup.read_bytes() == before


def test_a_shipped_file_shipped_again_keeps_its_curve_and_steps(pick_run: Path, tmp_path: Path) -> None:
    # a kept copy (skills.ship --dir docs/results/runs/...) shipped once its run directory is gone
    from skills.ship import ship

    kept = ship(pick_run, tmp_path / "kept")
    data = ckpt.read(kept)
    data["curve"] = [{"env_steps": 256, "success": 0.5, "return": 1.0, "episodes": 4.0, "seconds": 1.0}]
    ckpt.atomic_save(data, kept)
    again = ckpt.read(ship(kept, tmp_path / "shipped"))
    assert again["curve"] == data["curve"] and again["shipped"]["env_steps"] == 256
    assert again["shipped"]["from_run"] == str(kept)


def test_a_run_from_a_shipped_skill_counts_its_steps_and_curve(pick_run: Path, tmp_path: Path) -> None:
    # run.init_from=<shipped file>: a new run (here with another skill config) starts from that policy;
    # its shipped file counts both runs' steps and carries both curves, the second offset.
    from skills.ship import ship

    first = ship(pick_run, tmp_path / "a")
    data = ckpt.read(first)  # this tiny run finished no episode: give its file a curve to carry over
    data["curve"] = [{"env_steps": 200, "success": 0.5, "return": 1.0, "episodes": 4.0, "seconds": 1.0}]
    ckpt.atomic_save(data, first)
    run_dir = tmp_path / "ft"
    run(
        compose(
            [
                "skill=pick",
                "skill.base_movement=false",
                "skill.spawn_max_dist=1.0",
                f"run.init_from={first}",
                f"run.dir={run_dir}",
                *TINY,
            ]
        )
    )
    second = ckpt.read(ship(run_dir, tmp_path / "b"))
    assert second["shipped"]["env_steps"] == 512 == load_skill_policy(run_dir).env_steps_trained
    assert second["curve"][:1] == data["curve"]
    assert all(p["seconds"] >= 1.0 for p in second["curve"])  # wall-clock goes on from the first run's
    assert second["meta"]["skill_config"]["spawn_max_dist"] == 1.0


def test_a_run_from_another_runs_checkpoint_carries_that_runs_curve(pick_run: Path, tmp_path: Path) -> None:
    # run.init_from=<a run's checkpoint>: the shipped file's curve starts with that run's metrics, up to the
    # checkpoint's steps only (a row the run wrote after it is not behind the policy)
    import shutil

    from skills.ship import ship

    parent = tmp_path / "parent"
    shutil.copytree(pick_run, parent)
    rows = [(128, 2, 0.5), (256, 2, 1.0), (384, 4, 0.0)]  # the last one after the checkpoint (256 steps)
    (parent / "metrics.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "env_steps": s,
                    "episode/count": n,
                    "episode/success": x,
                    "episode/return": x,
                    "time/collect_s": 1.0,
                    "time/learn_s": 1.0,
                }
            )
            + "\n"
            for s, n, x in rows
        )
    )
    run_dir = tmp_path / "ft"
    run(
        compose(
            [
                "skill=pick",
                "skill.base_movement=false",
                "skill.spawn_max_dist=1.0",
                f"run.init_from={parent / 'checkpoints' / 'latest.pt'}",
                f"run.dir={run_dir}",
                *TINY,
            ]
        )
    )
    shipped = ckpt.read(ship(run_dir, tmp_path / "out"))
    assert shipped["shipped"]["env_steps"] == 512
    assert shipped["curve"][0] == {
        "env_steps": 256,
        "success": 0.75,
        "return": 0.75,
        "episodes": 4.0,
        "seconds": 4.0,
    }
    assert all(p["env_steps"] > 256 for p in shipped["curve"][1:])


def test_a_run_from_a_run_that_started_from_a_shipped_file_carries_both_before_it(
    pick_run: Path, tmp_path: Path
) -> None:
    # shipped file A -> run B (init_from A) -> run C (init_from B's checkpoint): C's shipped curve is A's,
    # then B's own metrics, then C's. B's checkpoint records A's curve as what was behind its start; until
    # 2026-11-28 C's file carried that alone, without B's run (the shipped LSTM place's 2.5M middle stage).
    from skills.ship import ship

    first = ship(pick_run, tmp_path / "a")
    data = ckpt.read(first)
    data["curve"] = [{"env_steps": 200, "success": 0.5, "return": 1.0, "episodes": 4.0, "seconds": 1.0}]
    ckpt.atomic_save(data, first)
    middle, last = tmp_path / "b", tmp_path / "c"
    base = ["skill=pick", "skill.base_movement=false", "skill.spawn_max_dist=1.0"]
    run(compose([*base, f"run.init_from={first}", f"run.dir={middle}", *TINY]))
    (middle / "metrics.jsonl").write_text(
        "".join(
            json.dumps(
                {
                    "env_steps": s,
                    "episode/count": 2,
                    "episode/success": 0.25,
                    "episode/return": 2.0,
                    "time/collect_s": 1.0,
                    "time/learn_s": 1.0,
                }
            )
            + "\n"
            for s in (128, 256)
        )
    )
    run(compose([*base, f"run.init_from={middle / 'checkpoints' / 'latest.pt'}", f"run.dir={last}", *TINY]))
    shipped = ckpt.read(ship(last, tmp_path / "out"))
    curve = shipped["curve"]
    assert shipped["shipped"]["env_steps"] == 768
    assert curve[0] == data["curve"][0]  # A's
    assert curve[1]["env_steps"] == 512 and curve[1]["success"] == 0.25  # B's own, offset by A's 256 steps
    assert curve[1]["seconds"] == 5.0  # B's wall-clock after A's
    assert all(p["env_steps"] > 512 for p in curve[2:])  # C's


def test_training_curve_bins_episode_weighted(tmp_path: Path) -> None:
    from skills.ship import training_curve

    rows = [
        {
            "env_steps": 30,
            "episode/count": 1,
            "episode/success": 1.0,
            "episode/return": 2.0,
            "time/collect_s": 1.0,
        },
        {
            "env_steps": 60,
            "episode/count": 3,
            "episode/success": 0.0,
            "episode/return": 0.0,
            "time/learn_s": 1.0,
        },
        {
            "env_steps": 90,
            "episode/count": 0,
            "episode/success": float("nan"),
            "episode/return": float("nan"),
        },
        {"env_steps": 120, "episode/count": 2, "episode/success": 0.5, "episode/return": 1.0},
    ]
    import json

    (tmp_path / "m.jsonl").write_text("\n".join(json.dumps(r) for r in rows) + "\n{cut")
    first, second = training_curve(tmp_path / "m.jsonl", bin_steps=50)
    assert first == {"env_steps": 60, "success": 0.25, "return": 0.5, "episodes": 4.0, "seconds": 2.0}
    assert second["env_steps"] == 120 and second["success"] == 0.5 and second["episodes"] == 2.0


def test_any_task_field_can_be_overridden_and_is_type_checked() -> None:
    from skills.train import compose, skill_meta, train_config

    _, skill = train_config(compose(["skill=pick", "skill.spawn_max_dist=1.0", "skill.base_movement=false"]))
    cfg = skill_meta(skill)["skill_config"]
    assert cfg["spawn_max_dist"] == 1.0 and cfg["base_movement"] is False
    for bad, field in (
        ("skill.spawn_max_dist=abc", "spawn_max_dist"),
        ("skill.max_steps=2.5", "max_steps"),
        ("skill.bogus=1", "bogus"),
    ):
        _, skill = train_config(compose(["skill=pick", bad]))
        with pytest.raises(ValueError, match=f"skill.{field}"):
            skill_meta(skill)


def test_grip_init_mean_starts_the_grip_closed(tmp_path: Path) -> None:
    """skill.grip_init_mean sets the grip's initial mean action (the others stay 0) in a run from scratch,
    is recorded, and the run resumes; a skill without a grip, or a second initial mean, is refused."""
    torch.set_num_threads(1)
    run_dir = tmp_path / "run"
    args = ["skill=pick", "skill.grip_init_mean=2.0", f"run.dir={run_dir}", *TINY]
    result = run(compose([*args, "run.total_steps=128"]))
    data = ckpt.read(run_dir)
    mean = data["config"]["policy"]["init_action_mean"]
    assert mean == [0.0] * 7 + [2.0, 0.0, 0.0]  # arm 7, grip, base 2
    assert data["meta"]["skill_config"]["grip_init_mean"] == 2.0
    first = [m for m in result.history if "learn/lr" in m]
    assert first  # it trained; the bias moved from 2.0 by at most a few Adam steps
    assert abs(float(data["model"]["actor.bias"][7]) - 2.0) < 0.1
    assert run(compose([*args, "run.resume=true"])).counters.env_steps == 256
    with pytest.raises(ConfigError, match=r"skill.grip_init_mean=0.0 and the run .* started with 2.0"):
        run(
            compose(
                [args[0], "skill.grip_init_mean=0.0", *args[2:], "run.resume=true", "run.total_steps=384"]
            )
        )
    with pytest.raises(ConfigError, match="skill.grip_init_mean=1.0: this skill has no grip"):
        run(compose(["skill=nav_to_obj", "skill.grip_init_mean=1.0", f"run.dir={tmp_path / 'n'}", *TINY]))
    with pytest.raises(ConfigError, match="both set the initial action"):
        run(
            compose(
                [
                    *args[:2],
                    f"run.dir={tmp_path / 'b'}",
                    "policy.init_action_mean=[0,0,0,0,0,0,0,1,0,0]",
                    *TINY,
                ]
            )
        )
