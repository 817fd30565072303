"""`tpsrl-render`: still pictures of the apartment (third-person, head depth, top-down overview).

Used to make the README's pictures: `tpsrl-render --layout 0 --seed 0 --out docs/images`.
Refuses to overwrite existing files unless `--force` is given.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np

from ..backend import DepthSettings
from ..env import EnvConfig, RearrangeEnv


def render_stills(layout: int, seed: int, clutter: int, depth_size: int) -> dict[str, np.ndarray]:
    """Third-person RGB, head depth (grey, black near) and overview RGB of one sampled episode."""
    env = RearrangeEnv(
        EnvConfig(
            layouts=(layout,),
            clutter=(clutter, clutter),
            depth=DepthSettings(height=depth_size, width=depth_size),
        )
    )
    obs, _ = env.reset(seed=seed)
    for _ in range(15):  # let objects settle
        env.step(np.r_[np.zeros(10), -1.0].astype(np.float32))
    b = env.backend
    depth = b.head_depth()
    grey = (255 * np.clip(depth / 5.0, 0, 1)).astype(np.uint8)
    out = {
        "third_person": b.render_rgb("third_person", 480, 640),
        "head_depth": np.repeat(grey[..., None], 3, axis=-1),
        "overview": b.render_rgb("overview", 640, 800),
    }
    env.close()
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="tpsrl-render", description=__doc__)
    p.add_argument("--layout", type=int, default=0)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--clutter", type=int, default=10)
    p.add_argument("--depth-size", type=int, default=256, help="head depth resolution (HAB: 256)")
    p.add_argument("--out", default="docs/images")
    p.add_argument("--force", action="store_true", help="overwrite existing pictures")
    args = p.parse_args(argv)
    import imageio.v2 as imageio

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    paths = {k: out / f"{k}_layout{args.layout}.png" for k in ("third_person", "head_depth", "overview")}
    existing = [str(q) for q in paths.values() if q.exists()]
    if existing and not args.force:
        print(f"tpsrl-render: {existing} exist; pass --force to overwrite")
        return 2
    for k, img in render_stills(args.layout, args.seed, args.clutter, args.depth_size).items():
        imageio.imwrite(paths[k], img)
        print(f"wrote {paths[k]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
