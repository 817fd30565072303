"""Agent variants: per-skill sources, the checkpoint hook by name, missing-checkpoint errors, config parsing."""

from __future__ import annotations

import pytest

from evaluation.config import ConfigError, parse_overrides
from evaluation.policies import MissingCheckpointError, checkpoint_path, get_agent, skill_sources


def test_tp_spa_is_all_scripted():
    src = skill_sources("tp_spa")
    assert set(src.sources.values()) == {"scripted"} and "nav_to_obj" in src.sources


def test_missing_checkpoints_named_with_train_command(tmp_path):
    with pytest.raises(MissingCheckpointError) as e:
        skill_sources("tp_srl_nobase", needed=("nav_to_obj", "pick"), directory=tmp_path)
    msg = str(e.value)
    assert (
        str(tmp_path / "pick_nobase.pt") in msg and "tpsrl-train skill=pick skill.base_movement=false" in msg
    )
    assert str(tmp_path / "nav_to_obj.pt") in msg  # nav always moves the base: one checkpoint


def test_checkpoints_picked_up_by_name(tmp_path):
    for s in ("pick", "place"):
        checkpoint_path(s, True, tmp_path).write_bytes(b"")
    src = skill_sources("tp_srl_nonav", needed=("pick", "place"), directory=tmp_path)
    assert src.sources["pick"] == str(tmp_path / "pick.pt")
    assert "nav_to_obj" not in src.sources  # NoNav has no nav skill


def test_nonav_with_scripted_pick_place_and_mixing(tmp_path):
    src = skill_sources(
        "tp_srl_nonav", scripted=("pick", "place"), needed=("pick", "place"), directory=tmp_path
    )
    assert src.sources["pick"] == "scripted" and src.base_movement["pick"]
    assert src.sources["open_fridge"].endswith("open_fridge.pt")  # the rest stays learned
    with pytest.raises(ValueError, match="not a skill of agent 'tp_srl_nonav'"):
        skill_sources("tp_srl_nonav", scripted=("nav_to_obj",))


def test_unknown_agent():
    with pytest.raises(
        ValueError,
        match="accepted: \\['tp_spa', 'tp_srl', 'tp_srl_nobase', 'tp_srl_nonav', 'tp_srl_nonav_nobase'\\]",
    ):
        get_agent("tp_sr")


def test_overrides():
    cfg = parse_overrides(
        ["scenario=set_table", "episodes=3", "chain.skill_steps=300", "scripted=pick, place"]
    )
    assert (cfg.scenario, cfg.episodes, cfg.chain.skill_steps) == ("set_table", 3, 300)
    assert cfg.chain.nav_steps == 300 and cfg.scripted_skills == ("pick", "place")
    for bad, where in (
        (["foo=1"], "chain.skill_steps"),
        (["scenario=x"], "tidy_house"),
        (["episodes=0"], ">= 1"),
        (["episodes"], "key=value"),
        (["chain.nope=1"], "chain.nav_steps"),
        (["chain.noise_scale=0"], "chain.noise_scale: 0.0 must be a finite number > 0"),
    ):
        with pytest.raises(ConfigError, match=where):
            parse_overrides(bad)


def test_checkpoint_overrides(tmp_path):
    cfg = parse_overrides(["agent=tp_srl_nonav", "checkpoints=pick:a/pick.pt, place:b.pt"])
    assert cfg.checkpoint_map == {"pick": "a/pick.pt", "place": "b.pt"}
    with pytest.raises(ConfigError, match="unknown skill 'nav_to_obj'"):
        parse_overrides(["agent=tp_srl_nonav", "checkpoints=nav_to_obj:x.pt"])
    with pytest.raises(ConfigError, match="skill:path"):
        parse_overrides(["checkpoints=pick"])
    (tmp_path / "p.pt").write_bytes(b"")
    src = skill_sources(
        "tp_srl_nonav", ("place",), {"pick": str(tmp_path / "p.pt")}, ("pick", "place"), tmp_path
    )
    assert src.sources["pick"] == str(tmp_path / "p.pt")
