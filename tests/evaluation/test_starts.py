"""Pick, place and nav starts recorded inside HAB chains on training layouts (evaluation/starts.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evaluation.episodes import generate_episodes
from evaluation.starts import RECORD_SEED, ee_clearance, main, record_call_starts
from skills.registry import make_env
from skills.splits import HELDOUT_LAYOUTS, TRAIN_LAYOUTS
from skills.starts import load_bank
from tpsrl.sim.episode import save_episodes


def test_training_layout_episode_sets_are_apart_from_the_evaluation_sets() -> None:
    train = generate_episodes("tidy_house", 6, seed=3, split="train")
    assert all(e.layout in TRAIN_LAYOUTS for e in train)
    assert all(e.layout in HELDOUT_LAYOUTS for e in generate_episodes("tidy_house", 6, seed=3))
    with pytest.raises(ValueError, match="skill.split: unknown split 'test'"):
        generate_episodes("tidy_house", 1, split="test")


def test_every_place_call_of_a_chain_becomes_a_place_episode(tmp_path: Path) -> None:
    starts, counts = record_call_starts(["tidy_house"], 1, agent="tp_spa")  # scripted skills: quick
    assert counts["calls"] >= 5  # five objects, each placed at least once
    assert (
        counts["kept"]
        == len(starts)
        == counts["calls"] - counts["not_holding_target"] - counts["not_recreated"]
    )
    assert len(starts) >= 4
    path = tmp_path / "chain.json"
    save_episodes(path, starts)
    bank = load_bank(str(path), "train", "place")  # every start holds its target, on training layouts
    env = make_env("place", split="train", start_bank=str(path), start_bank_prob=1.0)
    for spec in bank:
        env.reset(options={"episode": spec})
        assert env.backend.held == spec.targets[0].handle
        assert env.backend.base_pose[:2] == pytest.approx((spec.robot.x, spec.robot.y), abs=0.05)
    assert len({s.targets[0].handle for s in bank}) >= 4  # one start per object's place call, not one object


def test_every_pick_call_of_a_chain_becomes_a_pick_episode(tmp_path: Path) -> None:
    starts, counts = record_call_starts(["tidy_house"], 1, agent="tp_spa", skill="pick")
    assert counts["calls"] >= 5  # five objects, each picked at least once
    assert counts["kept"] == len(starts) == counts["calls"] - counts["holding"] - counts["not_recreated"]
    assert len({s.targets[0].handle for s in starts}) >= 4
    path = tmp_path / "pick_chain.json"
    save_episodes(path, starts)
    env = make_env("pick", split="train", start_bank=str(path), start_bank_prob=1.0)
    ids = {s.episode_id for s in starts}
    for seed in range(len(starts)):
        _, info = env.reset(seed=seed)
        assert info["episode_id"] in ids
        spec = next(s for s in starts if s.episode_id == info["episode_id"])
        assert env.backend.held is None and spec.held is None
        assert env.backend.base_pose[:2] == pytest.approx((spec.robot.x, spec.robot.y), abs=0.05)
        assert env.task.target == spec.targets[0].handle
    with pytest.raises(ValueError, match=r"outside the 'heldout' split"):
        make_env("pick", split="heldout", start_bank=str(path), start_bank_prob=0.5)


def test_every_nav_call_of_a_chain_becomes_a_nav_episode_to_where_the_chain_went(tmp_path: Path) -> None:
    starts, counts = record_call_starts(["tidy_house"], 1, agent="tp_spa", skill="nav_to_obj")
    assert counts["calls"] >= 10  # to each of five objects and to each of their goals
    assert counts["kept"] == len(starts) == counts["calls"] - counts["not_recreated"]
    path = tmp_path / "nav_chain.json"
    save_episodes(path, starts)
    bank = load_bank(str(path), "train", "nav_to_obj")
    held = [s for s in bank if s.held is not None]
    assert held and len(held) < len(bank)  # navs to goals, holding the object, and navs to objects
    env = make_env("nav_to_obj", split="train", start_bank=str(path), start_bank_prob=1.0)
    for spec in bank:
        env.reset(options={"episode": spec})
        assert spec.nav_goal is not None and len(spec.targets) == 1
        assert env.task.goal == pytest.approx(spec.nav_goal)
        assert env.backend.held == spec.held
        if spec.held is None:  # to an object: its goal is where the object lies
            assert spec.nav_goal == pytest.approx(
                env.backend.object_pos(spec.targets[0].handle)[:2], abs=0.02
            )
        else:  # to the held object's goal
            assert spec.nav_goal == pytest.approx(spec.targets[0].goal[:2])
    with pytest.raises(ValueError, match=r"episode 0 .* has a nav goal: not a place episode"):
        load_bank(str(path), "train", "place")
    clearance = []
    for spec in bank:
        env.reset(options={"episode": spec})
        clearance.append(ee_clearance(env.backend, spec))
    limit = sorted(clearance)[len(clearance) // 2]  # about half the starts nearer than this
    near, counts = record_call_starts(["tidy_house"], 1, agent="tp_spa", skill="nav_to_obj", ee_within=limit)
    assert [s.episode_id for s in near] == [
        s.episode_id for s, c in zip(bank, clearance, strict=True) if c < limit
    ]
    assert 0 < len(near) < len(bank)
    assert counts["kept"] + counts["ee_clear"] + counts["not_recreated"] == counts["calls"]


def test_the_cli_refuses_bad_input_and_never_overwrites(tmp_path: Path) -> None:
    out = tmp_path / "chain.json"
    with pytest.raises(SystemExit):
        main(["--scenarios", "tidy_hose", "--out", str(out)])
    with pytest.raises(SystemExit):
        main(["--episodes", "0", "--out", str(out)])
    with pytest.raises(SystemExit):
        main(["--skill", "open_fridge", "--episodes", "1", "--out", str(out)])
    with pytest.raises(SystemExit):
        main(["--skill", "nav_to_obj", "--ee-within", "-0.1", "--episodes", "1", "--out", str(out)])
    assert not out.exists()
    out.write_text("[]")
    with pytest.raises(SystemExit):
        main(["--episodes", "1", "--out", str(out)])
    assert out.read_text() == "[]"


def test_first_only_keeps_each_episodes_first_pick_as_it_starts() -> None:
    specs = generate_episodes("tidy_house", 2, RECORD_SEED, split="train")
    starts, counts = record_call_starts(["tidy_house"], 2, agent="tp_spa", skill="pick", first_only=True)
    assert counts["calls"] == 2 and len(starts) == 2  # one call per episode: the chain ended there
    for spec, start in zip(specs, starts, strict=True):
        # tp_spa navigates first, so the first pick starts where its nav stopped, not at the spawn
        assert start.layout == spec.layout and start.held is None and len(start.targets) == 1
    every, _ = record_call_starts(["tidy_house"], 1, agent="tp_spa", skill="pick")
    assert len(every) > 1 and every[0].robot == starts[0].robot  # the first of every call is the same start
