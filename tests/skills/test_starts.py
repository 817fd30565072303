"""Start banks: place episodes recorded where the learned nav stopped (skills/starts.py)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from skills.evaluate import StartBankError, evaluate
from skills.registry import make_env
from skills.splits import HELDOUT_LAYOUTS
from skills.starts import (
    LIFT,
    BankEpisodes,
    load_bank,
    main,
    mid_episode,
    record_nav_stops,
    recreated,
    stop_episode,
    task_episodes,
)
from tpsrl.sim.episode import PlacementError, save_episodes

NAV = "skills/checkpoints/nav_to_obj.pt"


@pytest.fixture(scope="module")
def recorded() -> tuple[list, dict]:
    return record_nav_stops(NAV, "heldout", episodes=6, sample_frac=0.5)


def test_recorded_starts_are_place_episodes_where_nav_stopped(recorded: tuple[list, dict]) -> None:
    bank, counts = recorded
    assert counts["episodes"] == 6
    assert counts["kept"] == len(bank) <= counts["nav_success"] <= 6
    assert bank, "the shipped nav stops successfully in most held-out episodes"
    env = make_env("place", split="heldout")
    for spec in bank:
        assert spec.layout in HELDOUT_LAYOUTS
        assert spec.held == spec.targets[0].handle and spec.nav_goal is None
        env.reset(options={"episode": spec})
        x, y, _ = env.backend.base_pose
        assert np.hypot(x - spec.robot.x, y - spec.robot.y) < 0.05
        assert env.backend.held == spec.held
        goal = np.array(spec.targets[0].goal[:2])
        assert np.hypot(*(goal - (x, y))) < 1.5 + 0.05  # nav's success: within 1.5 m of the goal


def test_stop_episode_keeps_where_things_are_now() -> None:
    env = make_env("nav_to_obj", split="train", hold_prob=1.0)
    env.reset(seed=5)
    for _ in range(30):
        env.step(np.array([1.0, 0.3, -1.0]))  # drive and turn; stop output off
    spec = stop_episode(env.backend, env.backend.spec, 7)
    x, y, yaw = env.backend.base_pose
    assert (spec.robot.x, spec.robot.y, spec.robot.yaw) == pytest.approx((x, y, yaw))
    assert spec.episode_id == f"navstop-L{spec.layout}-7"
    start = {o.handle: o.pos for o in env.backend.spec.objects}
    for o in spec.objects:
        if o.handle == spec.held:  # where the nav episode put it (a reset snaps it into the gripper)
            assert o.pos == start[o.handle]
        else:
            assert o.pos == pytest.approx(tuple(env.backend.object_pos(o.handle) + [0, 0, LIFT]))
    assert spec.targets == env.backend.spec.targets and spec.held == env.backend.spec.held


def test_a_bank_is_refused_outside_its_split(tmp_path: Path, recorded: tuple[list, dict]) -> None:
    path = tmp_path / "bank.json"
    save_episodes(path, recorded[0])
    assert len(load_bank(str(path), "heldout")) == len(recorded[0])
    with pytest.raises(ValueError, match=r"skill.start_bank: .* outside the 'train' split"):
        make_env("place", split="train", start_bank=str(path), start_bank_prob=1.0)
    with pytest.raises(ValueError, match="skill.start_bank: .*cannot be read"):
        make_env("place", start_bank=str(tmp_path / "missing.json"), start_bank_prob=0.5)
    with pytest.raises(ValueError, match="skill.start_bank_prob: 0.5 needs skill.start_bank"):
        make_env("place", start_bank_prob=0.5)
    with pytest.raises(ValueError, match=r"skill.start_bank_prob: 1.5 must be in \[0, 1\]"):
        make_env("place", split="heldout", start_bank=str(path), start_bank_prob=1.5)
    pick_like = tmp_path / "not_place.json"
    save_episodes(pick_like, [replace(recorded[0][0], held=None)])
    with pytest.raises(ValueError, match="starts holding nothing: not a place episode"):
        load_bank(str(pick_like), "heldout", "place")
    with pytest.raises(ValueError, match="starts holding nothing: not a place episode"):
        make_env("place", split="heldout", start_bank=str(pick_like), start_bank_prob=0.5)
    with pytest.raises(ValueError, match="starts holding its target: not a pick episode"):
        make_env("pick", split="heldout", start_bank=str(path), start_bank_prob=0.5)
    assert len(load_bank(str(pick_like), "heldout")) == 1  # no skill named: the first episode's
    with pytest.raises(
        ValueError, match=rf"episode {len(recorded[0])} \(.*\) starts holding nothing: not a place episode"
    ):
        load_bank(f"{path},{pick_like}", "heldout")  # one kind per bank
    with pytest.raises(ValueError, match="starts holding its target: not a nav_to_obj episode"):
        make_env("nav_to_obj", split="heldout", start_bank=str(path), start_bank_prob=0.5)
    with pytest.raises(ValueError, match="not 'open_fridge'"):
        load_bank(str(path), "heldout", "open_fridge")


def test_the_place_task_draws_from_the_bank_with_its_probability(
    tmp_path: Path, recorded: tuple[list, dict]
) -> None:
    path = tmp_path / "bank.json"
    save_episodes(path, recorded[0])
    ids = {s.episode_id for s in recorded[0]}
    always = make_env("place", split="heldout", start_bank=str(path), start_bank_prob=1.0)
    never = make_env("place", split="heldout", start_bank=str(path), start_bank_prob=0.0)
    assert isinstance(always.task.episodes, BankEpisodes)
    for seed in range(8):
        assert always.reset(seed=seed)[1]["episode_id"] in ids
        assert never.reset(seed=seed)[1]["episode_id"] not in ids
    half = make_env("place", split="heldout", start_bank=str(path), start_bank_prob=0.5)
    drawn = [half.reset(seed=s)[1]["episode_id"] in ids for s in range(40)]
    assert 8 <= sum(drawn) <= 32


def test_evaluate_runs_the_bank_in_order(tmp_path: Path, recorded: tuple[list, dict]) -> None:
    r = evaluate("scripted:place", episodes=2, split="heldout", specs=recorded[0][:2])
    assert r.episodes == min(2, len(recorded[0]))
    r = evaluate("scripted:place", episodes=50, split="heldout", specs=recorded[0][:1])
    assert r.episodes == 1  # no more than the bank holds
    with pytest.raises(StartBankError, match=r"episodes of \['place'\] given to a 'pick' policy"):
        evaluate("scripted:pick", episodes=1, split="heldout", specs=recorded[0][:1])


def test_the_cli_never_overwrites_and_refuses_a_non_nav_policy(tmp_path: Path) -> None:
    out = tmp_path / "bank.json"
    out.write_text("[]")
    with pytest.raises(SystemExit):
        main(["--episodes", "1", "--out", str(out)])
    assert out.read_text() == "[]"
    with pytest.raises(SystemExit):
        main(["--nav", "skills/checkpoints/place.pt", "--episodes", "1", "--out", str(tmp_path / "b.json")])
    assert not (tmp_path / "b.json").exists()


def test_an_object_found_inside_its_support_is_raised_out_of_it() -> None:
    env = make_env("place", split="train", clutter=(2, 2))
    env.reset(seed=11)
    spec = env.backend.spec
    i = next(k for k, o in enumerate(spec.objects) if o.handle != spec.held)
    o = spec.objects[i]
    sunk = replace(
        spec,
        objects=spec.objects[:i] + (replace(o, pos=(*o.pos[:2], o.pos[2] - 0.04)),) + spec.objects[i + 1 :],
    )
    with pytest.raises(PlacementError, match=rf"objects\[{i}\]"):
        env.backend.reset(sunk)
    fixed = recreated(env.backend, sunk)
    assert fixed is not None and o.pos[2] - 0.04 < fixed.objects[i].pos[2] <= o.pos[2] + 0.03
    assert fixed.objects[:i] == spec.objects[:i] and fixed.robot == spec.robot
    inside_wall = replace(spec, robot=replace(spec.robot, x=-5.0))
    assert recreated(env.backend, inside_wall) is None  # the robot is not moved: not re-created


def test_a_policy_acts_without_its_training_bank(tmp_path: Path) -> None:
    from skills.config import acting_config
    from skills.registry import make_config

    cfg = make_config("place", start_bank=str(tmp_path / "gone.json"), start_bank_prob=0.5)
    acting = acting_config(cfg)
    assert acting.start_bank == "" and acting.start_bank_prob == 0.0 and acting.split == cfg.split
    make_env("place", **{k: v for k, v in acting.__dict__.items()})  # no file needed to build its env


def test_a_joint_just_past_its_range_is_recreated_at_its_limit() -> None:
    env = make_env("pick", split="train")
    env.reset(seed=3)
    spec = env.backend.spec
    arm = tuple(env.backend.arm_qpos)
    past = replace(
        spec,
        articulations=(("drawer_0", 0.5 + 1e-5), ("fridge", 2.2 + 2e-5)),
        robot=replace(spec.robot, arm=(arm[0] - 1e3,) + arm[1:]),  # far past: not re-created
    )
    assert recreated(env.backend, past) is None
    near = replace(past, robot=replace(spec.robot, arm=arm))
    fixed = recreated(env.backend, near)
    assert fixed is not None and dict(fixed.articulations) == {"drawer_0": 0.5, "fridge": 2.2}
    assert env.backend.articulation("drawer_0") == pytest.approx(0.5, abs=1e-3)
    far = replace(spec, articulations=(("drawer_0", 0.6),))
    assert recreated(env.backend, far) is None


def test_task_episodes_weight_a_part_of_the_task(tmp_path: Path) -> None:
    out = tmp_path / "fridge.json"
    args = ["--task", "pick", "--set", "receptacles=('fridge',)", "--episodes", "3", "--out", str(out)]
    assert main(args) == 0
    bank = load_bank(str(out), "train", "pick")
    assert len(bank) == 3 and len({s.robot.x for s in bank}) == 3
    for spec in bank:
        assert spec.layout not in HELDOUT_LAYOUTS and spec.held is None
        target = next(o for o in spec.objects if o.handle == spec.targets[0].handle)
        assert target.receptacle == "fridge"
    assert bank == task_episodes("pick", "train", 3, receptacles=("fridge",))  # the same draws
    with pytest.raises(SystemExit):
        main(args)  # never overwritten
    with pytest.raises(SystemExit):
        main(["--set", "receptacles=('fridge',)", "--out", str(tmp_path / "x.json")])  # fields need --task
    with pytest.raises(SystemExit):
        main(["--task", "pick", "--set", "start_bank=x", "--out", str(tmp_path / "y.json")])


def test_a_bank_of_failures_keeps_only_the_episodes_the_policy_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "failed.json"
    weak = "skills/checkpoints/pick_nobase.pt"  # no base: from pick's 2 m spawns it mostly times out
    assert main(["--task", "pick", "--episodes", "4", "--failures-of", weak, "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    bank = load_bank(str(out), "train", "pick")
    drawn = task_episodes("pick", "train", 4)
    assert 0 < len(bank) < 4 and report["failed"] == len(bank) == sum(report["causes"].values())
    assert bank == [s for s in drawn if s in bank]  # in order, drawn as the task draws them
    assert evaluate(weak, 1, "train", specs=bank[:1]).outcomes == [False]
    with pytest.raises(SystemExit):
        main(["--failures-of", weak, "--out", str(tmp_path / "x.json")])  # needs --task
    with pytest.raises(SystemExit):  # a place policy on pick episodes
        main(
            [
                "--task",
                "pick",
                "--episodes",
                "1",
                "--failures-of",
                "skills/checkpoints/place.pt",
                "--out",
                str(tmp_path / "y.json"),
            ]
        )
    with pytest.raises(SystemExit):
        main(
            ["--task", "pick", "--failures-of", str(tmp_path / "gone.pt"), "--out", str(tmp_path / "z.json")]
        )
    assert "--failures-of" in capsys.readouterr().err
    assert not any((tmp_path / f).exists() for f in ("x.json", "y.json", "z.json"))


def test_states_along_a_demonstrator_start_where_it_was_mid_way(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "along.json"
    args = ["--task", "place", "--along", "scripted:place", "--episodes", "4", "--per-episode", "3"]
    assert main([*args, "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    bank = load_bank(str(out), "train", "place")
    assert report["success"] >= 2, "the scripted place places most training episodes"
    assert len(bank) == report["kept"] == report["candidates"] - report["not_recreated"] - report["not_calm"]
    assert 0 < len(bank) <= 3 * report["success"]
    drawn = {s.episode_id: s for s in task_episodes("place", "train", 4)}
    env = make_env("place", split="train")
    for spec in bank:
        first = drawn[spec.episode_id.split("-", 1)[1].rsplit("-", 2)[0]]
        assert spec.layout == first.layout and spec.targets == first.targets and spec.held == first.held
        assert spec.robot.arm is not None and len(spec.robot.arm) == 7
        assert (spec.robot.x, spec.robot.y, spec.robot.arm) != (first.robot.x, first.robot.y, None)
        env.reset(options={"episode": spec})  # a place episode that starts there, holding its target
        assert env.backend.held == spec.held
        assert env.backend.arm_qpos == pytest.approx(np.array(spec.robot.arm), abs=1e-6)
    with pytest.raises(SystemExit):
        main([*args, "--out", str(out)])  # never overwritten
    with pytest.raises(SystemExit):  # a pick policy along place episodes
        main(
            [
                "--task",
                "place",
                "--along",
                "scripted:pick",
                "--episodes",
                "1",
                "--out",
                str(tmp_path / "x.json"),
            ]
        )
    with pytest.raises(SystemExit):
        main(["--along", "scripted:place", "--out", str(tmp_path / "y.json")])  # needs --task
    with pytest.raises(SystemExit):
        main([*args[:-1], "0", "--out", str(tmp_path / "z.json")])
    assert not any((tmp_path / f).exists() for f in ("x.json", "y.json", "z.json"))


def test_mid_episode_keeps_the_arm_and_the_scene_as_they_are() -> None:
    env = make_env("place", split="train")
    env.reset(seed=3)
    for _ in range(10):
        env.step(env.action_space.sample() * 0.5)
    b = env.backend
    spec = mid_episode(b, b.spec, 2, 10)
    assert spec.robot.arm == pytest.approx(tuple(b.arm_qpos))
    assert (spec.robot.x, spec.robot.y, spec.robot.yaw) == pytest.approx(b.base_pose)
    assert spec.articulations == tuple((n, pytest.approx(b.articulation(n))) for n, _ in b.spec.articulations)
    assert spec.episode_id == f"along-{b.spec.episode_id}-2-10" and spec.held == b.spec.held
