"""HAB episode videos: third-person RGB (when OpenGL works) and head depth, overlaid with the agent's progress.

Frames and overlays are made with `skills.video`'s helpers (`_depth_panel`, `_overlay`); this module only
adds what a HAB episode shows: the current skill, plan step k/n, stage successes so far and replans.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from evaluation.agent import StepInfo
from skills.video import _depth_panel, _overlay
from tpsrl.sim.env import RearrangeEnv

__all__ = ["EpisodeRecorder", "VIDEO_DEPTH"]

VIDEO_DEPTH = 64  # head depth resolution of video episodes
FRAME_EVERY = 2  # keep every 2nd control step (15 fps of 30 Hz control)
SIZE = 240  # panel height (px)


class EpisodeRecorder:
    """An agent observer collecting overlaid frames; `write(path)` saves them as mp4."""

    def __init__(self, frame_every: int = FRAME_EVERY, size: int = SIZE) -> None:
        self.frame_every, self.size = frame_every, size
        self.rgb_ok = True
        self.frames: list[np.ndarray] = []

    def __call__(self, env: RearrangeEnv, info: StepInfo) -> None:
        if info.steps % self.frame_every:
            return
        h = self.size
        panels = []
        if self.rgb_ok:
            try:
                panels.append(env.backend.render_rgb("third_person", h, h * 4 // 3))
            except Exception:  # noqa: BLE001 - no OpenGL here: head depth only
                self.rgb_ok = False
        if env.cfg.depth.mode != "none":
            depth = env.backend.head_depth() / env.cfg.depth.max_depth
            panels.append(_depth_panel(np.asarray(depth, np.float32)[..., None], h))
        if not panels:
            panels.append(np.zeros((h, h, 3), np.uint8))
        self.frames.append(_overlay(np.concatenate(panels, axis=1), _caption(info)))

    def write(self, path: Path, fps: int = 30) -> Path:
        import imageio.v2 as imageio

        path.parent.mkdir(parents=True, exist_ok=True)
        imageio.mimwrite(path, self.frames, fps=max(1, fps // self.frame_every), macro_block_size=1)
        return path


def _caption(info: StepInfo) -> str:
    done = sum(info.stages)
    last = info.stage_names[done - 1] if done else "-"
    return (
        f"{info.skill}  plan step {info.call}/{info.plan_len}  stages {done}/{len(info.stages)} ({last})  "
        f"replans {info.replans}  t={info.steps}"
    )
