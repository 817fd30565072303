"""Metrics: a JSONL file always (`metrics.jsonl`, one object per update), Weights & Biases (offline by
default, off by option) and a tqdm progress bar with steps/s and ETA."""

from __future__ import annotations

import json
import math
import os
import sys
import warnings
from collections import defaultdict
from pathlib import Path
from typing import Any

from tqdm import tqdm

from tpsrl.engine.workers import EpisodeSummary


def episode_metrics(episodes: list[EpisodeSummary]) -> dict[str, float]:
    """Means over the episodes that ended: return, length and each `episode_stats` key (an environment
    reports its per-episode reward terms there, e.g. `return/<term>`: the engine sums nothing else)."""
    if not episodes:
        return {}
    out: dict[str, float] = {"episode/count": float(len(episodes))}
    out["episode/return"] = sum(e.reward_sum for e in episodes) / len(episodes)
    out["episode/length"] = sum(e.length for e in episodes) / len(episodes)
    stats: dict[str, list[float]] = defaultdict(list)
    for e in episodes:
        for k, v in e.stats.items():
            stats[k].append(v)
    out.update({f"episode/{k}": sum(v) / len(v) for k, v in stats.items()})
    return out


def truncate_metrics(path: Path, last_update: int) -> int:
    """Keeps the lines of `path` up to update `last_update` (the checkpoint a run resumes from): the
    updates logged after it are learned again, and would otherwise appear twice. A torn last line (a kill
    mid-write) is dropped too. Rewritten atomically; returns the number of lines dropped."""
    if not path.exists():
        return 0
    kept, dropped = [], 0
    for line in path.read_text().splitlines():
        try:
            update = json.loads(line).get("update", 0)
        except (json.JSONDecodeError, AttributeError):
            dropped += 1
            continue
        if isinstance(update, int) and update > last_update:
            dropped += 1
            continue
        kept.append(line + "\n")
    if dropped:
        tmp = path.with_name(f".{path.name}.tmp{os.getpid()}")
        tmp.write_text("".join(kept))
        os.replace(tmp, path)
    return dropped


class Logger:
    def __init__(
        self,
        run_dir: Path,
        *,
        mode: str,
        project: str,
        config: dict[str, Any],
        total_steps: int,
        initial_steps: int,
        progress: bool,
        resume_update: int | None,
    ) -> None:
        """`resume_update`: the update of the checkpoint a resumed run starts from (None: a new run)."""
        resume = resume_update is not None
        if resume:
            truncate_metrics(run_dir / "metrics.jsonl", resume_update)
        self.file = open(run_dir / "metrics.jsonl", "a" if resume else "w", buffering=1)
        self.wandb: Any = None
        if mode != "disabled":
            self._init_wandb(run_dir, mode, project, config, resume)
        self.bar = tqdm(
            total=total_steps,
            initial=initial_steps,
            unit="step",
            unit_scale=True,
            dynamic_ncols=True,
            disable=not progress,
            file=sys.stderr,
            smoothing=0.1,
        )

    def _init_wandb(self, run_dir: Path, mode: str, project: str, config: dict, resume: bool) -> None:
        try:
            import wandb

            # The run id is wandb's own (`run.id`), kept in the run directory so a resumed run continues it.
            id_file = run_dir / "wandb_id"
            run_id = id_file.read_text().strip() if resume and id_file.exists() else None
            self.wandb = wandb.init(
                project=project,
                dir=str(run_dir),
                mode=mode,
                config=config,
                id=run_id,
                resume="allow" if run_id else None,
                name=run_dir.name,
            )
            id_file.write_text(self.wandb.id)
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
