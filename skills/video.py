"""Skill videos: roll a skill policy out on N episodes, write an mp4 with an overlay and a JSON summary.

`python -m skills.video skill=pick policy=scripted episodes=3 [split=heldout] [out_dir=runs/skill_videos]`
`policy=scripted` uses `skills.scripted.SCRIPTED`; any other value is a checkpoint or run directory,
loaded by `skills.learned.load_skill_policy` (written with the training command). Frames are the
third-person RGB camera (OpenGL: MUJOCO_GL=egl or osmesa) beside the head depth; without OpenGL the
video shows head depth only. Every run writes a new timestamped folder, never over an earlier one.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from skills.learned import load_skill_policy
from skills.policy import SkillPolicy
from skills.scripted import make_scripted
from skills.scripted.envs import SKILLS, make_skill_env, rollout
from tpsrl.engine.inference import single_thread_acting


@dataclass
class VideoConfig:
    """Configuration of a skill video."""

    skill: str = "pick"
    """Skill name (see skills.scripted.envs.SKILLS)."""
    policy: str = "scripted"
    """"scripted" or a checkpoint / run directory of a learned policy."""
    episodes: int = 3
    """Episodes to roll out (one video each)."""
    split: str = "train"
    """Layouts: "train" or "heldout"."""
    seed: int = 0
    """Seed of the first episode (episode i uses seed + i)."""
    frame_every: int = 2
    """Keep one frame in this many control steps."""
    size: int = 320
    """Frame height in pixels (RGB and depth panels)."""
    out_dir: str = "runs/skill_videos"
    """Parent folder; each run writes into a new timestamped subfolder."""


def load_policy(cfg: VideoConfig, env: Any) -> SkillPolicy:
    """The scripted controller, or the learned policy of a run directory / checkpoint (`policy=<path>`;
    its spaces are checked against the env at the first reset)."""
    if cfg.policy == "scripted":
        return make_scripted(cfg.skill)
    return load_skill_policy(cfg.policy, skill=cfg.skill)


def new_run_dir(parent: str, skill: str) -> Path:
    out = Path(parent) / f"{time.strftime('%Y%m%d-%H%M%S')}_{skill}"
    while out.exists():  # never overwrite an earlier run
        out = out.with_name(out.name + "_")
    out.mkdir(parents=True)
    return out


class Recorder:
    """Collects overlaid frames of one episode (RGB when OpenGL works, else head depth only)."""

    def __init__(self, cfg: VideoConfig) -> None:
        self.cfg = cfg
        self.rgb_ok = True
        self.frames: list[np.ndarray] = []

    def __call__(self, env: Any, obs: dict, t: int, ret: float, ok: bool) -> None:
        if t % self.cfg.frame_every:
            return
        h = self.cfg.size
        panels = []
        if self.rgb_ok:
            try:
                panels.append(env.backend.render_rgb("third_person", h, h * 4 // 3))
            except Exception as e:  # noqa: BLE001 - no OpenGL: depth only, said once
                print(f"note: no RGB frames ({type(e).__name__}: {e}); the video shows head depth only")
                self.rgb_ok = False
        if "head_depth" in obs:
            panels.append(_depth_panel(obs["head_depth"], h))
        if not panels:
            panels.append(np.zeros((h, h, 3), np.uint8))
        text = f"{self.cfg.skill}  step {t}  return {ret:+.2f}  success {'yes' if ok else 'no'}"
        self.frames.append(_overlay(np.concatenate(panels, axis=1), text))


def _depth_panel(depth: np.ndarray, size: int) -> np.ndarray:
    d = depth[..., 0]
    idx = (np.arange(size) * d.shape[0] // size)[:, None], (np.arange(size) * d.shape[1] // size)[None, :]
    g = (255 * np.clip(d[idx] * 2.0, 0, 1)).astype(np.uint8)
    return np.repeat(g[..., None], 3, axis=-1)


def _overlay(frame: np.ndarray, text: str) -> np.ndarray:
    from PIL import Image, ImageDraw

    img = Image.fromarray(np.ascontiguousarray(frame))
    draw = ImageDraw.Draw(img)
    draw.rectangle((0, 0, img.width, 18), fill=(0, 0, 0))
    draw.text((6, 3), text, fill=(255, 255, 255))
    return np.asarray(img)


def run_video(cfg: VideoConfig) -> dict:
    """Roll out `cfg.episodes` episodes, write one mp4 each and summary.json; returns the summary."""
    if cfg.skill not in SKILLS:
        raise ValueError(f"skill: unknown skill {cfg.skill!r}; accepted: {list(SKILLS)}")
    if cfg.episodes < 1:
        raise ValueError(f"episodes: {cfg.episodes} must be >= 1")
    import imageio.v2 as imageio

    env = make_skill_env(cfg.skill, split=cfg.split, depth=64)
    policy = load_policy(cfg, env)
    out = new_run_dir(cfg.out_dir, cfg.skill)
    runs = []
    for i in range(cfg.episodes):
        rec = Recorder(cfg)
        o = rollout(env, policy, seed=cfg.seed + i, frame_fn=rec)
        video = out / f"episode_{i:02d}.mp4"
        imageio.mimwrite(video, rec.frames, fps=max(1, 30 // cfg.frame_every), macro_block_size=1)
        runs.append(
            {
                "seed": cfg.seed + i,
                "layout": o.layout,
                "success": o.success,
                "steps": o.steps,
                "return": round(o.ret, 3),
                "policy_done": o.policy_done,
                "video": str(video),
                "rgb": rec.rgb_ok,
            }
        )
    env.close()
    summary = {
        "config": asdict(cfg),
        "success_rate": float(np.mean([r["success"] for r in runs])),
        "episodes": runs,
        "out_dir": str(out),
    }
    (out / "summary.json").write_text(json.dumps(summary, indent=1))
    return summary


def parse_args(argv: list[str]) -> VideoConfig:
    """`key=value` arguments into a `VideoConfig`; an unknown key lists the accepted ones."""
    known = {f.name: f for f in fields(VideoConfig)}
    kw: dict[str, Any] = {}
    for arg in argv:
        key, sep, value = arg.partition("=")
        if not sep or key not in known:
            raise SystemExit(
                f"tpsrl-skill-video: bad argument {arg!r}; use key=value with keys {sorted(known)}"
            )
        kw[key] = int(value) if known[key].type in (int, "int") else value
    return VideoConfig(**kw)


def main(argv: list[str] | None = None) -> int:
    single_thread_acting()
    s = run_video(parse_args(list(sys.argv[1:] if argv is None else argv)))
    print(f"skill video: {s['config']['skill']} ({s['config']['policy']}), success {s['success_rate']:.0%}")
    for r in s["episodes"]:
        print(
            f"  seed {r['seed']} layout {r['layout']}: success={r['success']} steps={r['steps']} -> {r['video']}"
        )
    print(f"  summary: {s['out_dir']}/summary.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
