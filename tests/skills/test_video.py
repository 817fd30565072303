"""Skill videos: an mp4 and a summary per run, a new folder every time, a clear error for checkpoints."""

from __future__ import annotations

import json

import pytest

from skills.learned import SkillCheckpointError
from skills.video import VideoConfig, parse_args, run_video


def test_video_writes_mp4_and_summary_and_never_overwrites(tmp_path) -> None:
    cfg = VideoConfig(skill="nav_to_obj", episodes=1, frame_every=6, size=96, out_dir=str(tmp_path))
    a = run_video(cfg)
    b = run_video(cfg)
    assert a["out_dir"] != b["out_dir"]
    ep = a["episodes"][0]
    assert (tmp_path / ep["video"].split("/")[-2] / "episode_00.mp4").stat().st_size > 0
    s = json.loads((tmp_path / a["out_dir"].split("/")[-1] / "summary.json").read_text())
    assert s["episodes"][0]["steps"] > 0 and "success" in s["episodes"][0]


def test_missing_checkpoint_is_named(tmp_path) -> None:
    cfg = VideoConfig(skill="pick", policy=str(tmp_path / "ckpt.pt"), episodes=1, out_dir=str(tmp_path))
    with pytest.raises(SkillCheckpointError, match="ckpt.pt does not exist"):
        run_video(cfg)


def test_bad_arguments_name_the_accepted_keys() -> None:
    with pytest.raises(SystemExit, match="episodes"):
        parse_args(["episode=3"])
    with pytest.raises(ValueError, match="unknown skill"):
        run_video(VideoConfig(skill="fly"))
