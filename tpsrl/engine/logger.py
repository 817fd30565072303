"""Metrics: a JSONL file always (`metrics.jsonl`, one object per update), Weights & Biases (offline by
default, off by option) and a tqdm progress bar with steps/s and ETA."""

from __future__ import annotations

import json
import math
import sys
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm


def episode_metrics(episodes: list[dict]) -> dict[str, float]:
    """Means over the episodes that ended: return, length and each `episode_stats` key (an environment
    reports its per-episode reward terms there, e.g. `return/<term>`: the engine sums nothing else)."""
    if not episodes:
        return {}
    out: dict[str, float] = {"episode/count": float(len(episodes))}
    out["episode/return"] = sum(e["return"] for e in episodes) / len(episodes)
    out["episode/length"] = sum(e["length"] for e in episodes) / len(episodes)
    stats: dict[str, list[float]] = defaultdict(list)
    for e in episodes:
        for k, v in e["stats"].items():
            stats[k].append(v)
    out.update({f"episode/{k}": sum(v) / len(v) for k, v in stats.items()})
    return out


class Logger:
    def __init__(self, run_dir: Path, mode: str, project: str, config: dict[str, Any], total_steps: int,
                 initial_steps: int, progress: bool, resume: bool) -> None:  # fmt: skip
        self.file = open(run_dir / "metrics.jsonl", "a" if resume else "w", buffering=1)
        self.wandb: Any = None
        if mode != "disabled":
            self._init_wandb(run_dir, mode, project, config, resume)
        self.bar = tqdm(total=total_steps, initial=initial_steps, unit="step", unit_scale=True,
                        dynamic_ncols=True, disable=not progress, file=sys.stderr, smoothing=0.1)  # fmt: skip

    def _init_wandb(self, run_dir: Path, mode: str, project: str, config: dict, resume: bool) -> None:
        try:
            import wandb

            id_file = run_dir / "wandb_id"
            run_id = id_file.read_text().strip() if id_file.exists() else wandb.util.generate_id()
            id_file.write_text(run_id)
            self.wandb = wandb.init(project=project, dir=str(run_dir), mode=mode, config=config, id=run_id,
                                    resume="allow" if resume else None, name=run_dir.name)  # fmt: skip
        except Exception as e:  # logging must never stop training
            warnings.warn(f"wandb disabled: {type(e).__name__}: {e}", stacklevel=2)
            self.wandb = None

    def log(self, metrics: dict[str, Any], env_steps: int, steps_added: int) -> None:
        clean = {
            k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in metrics.items()
        }
        self.file.write(json.dumps(clean) + "\n")
        if self.wandb is not None:
            self.wandb.log({k: v for k, v in metrics.items() if isinstance(v, int | float)}, step=env_steps)
        self.bar.update(steps_added)
        ret = metrics.get("episode/return")
        if ret is not None:
            self.bar.set_postfix_str(f"return {ret:.3g}", refresh=False)

    def close(self) -> None:
        self.bar.close()
        self.file.close()
        if self.wandb is not None:
            self.wandb.finish()
