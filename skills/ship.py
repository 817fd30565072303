"""Ships a trained skill: `python -m skills.ship <run dir or checkpoint>` writes the policy alone into
`skills/checkpoints/<skill>[_nobase].pt`, the file `agent=tp_srl` (and `tpsrl-eval-skills`) load by name.

The shipped file is the exported policy (`checkpoint.export_policy`: weights, policy config, spaces, skill
name and task config, counters, provenance) plus what the results need without the run directory:

- `curve`: the training curve binned by env steps (success, return, episodes, wall-clock), from the run's
  `metrics.jsonl`, so the learning-curve figures regenerate from shipped files alone;
- `shipped`: when and from which run and code commit it was shipped.

An existing shipped file is never overwritten silently: shipping over it needs `--force`, and the old
file is kept beside it as `<name>.pt.bak-<timestamp>`.
"""

from __future__ import annotations

import argparse
import json
import math
import shutil
import sys
import time
from pathlib import Path
from typing import Any

from tpsrl.engine import checkpoint

CHECKPOINT_DIR = Path(__file__).resolve().parent / "checkpoints"
"""The package's shipped skills (installed with it as package data)."""
CURVE_BIN_STEPS = 50_000
"""Width of one training-curve point, in env steps."""


class ShipError(ValueError):
    """A run that cannot be shipped (not a skill's, or a shipped file in the way)."""


def shipped_name(meta: dict[str, Any]) -> str:
    """`<skill>` or `<skill>_nobase` (manipulation skills trained without base movement)."""
    skill = meta.get("skill")
    if not skill:
        raise ShipError("the checkpoint is not a skill's (trained without skill=<name>); nothing to ship")
    base = (meta.get("skill_config") or {}).get("base_movement", True)
    return skill if base or skill == "nav_to_obj" else f"{skill}_nobase"


def training_curve(
    metrics_path: Path,
    bin_steps: int = CURVE_BIN_STEPS,
    offset: int = 0,
    seconds_offset: float = 0.0,
    until: int | None = None,
) -> list[dict[str, float]]:
    """The run's `metrics.jsonl` as one point per `bin_steps` env steps: episode-weighted success and
    return, episodes, and training wall-clock (collect + learn seconds) up to the bin's end. `offset`
    is added to the env steps and `seconds_offset` to the wall-clock (what is behind the policy a
    `run.init_from` run started from); `until`: the run's rows up to that many of its own env steps."""
    points: list[dict[str, float]] = []
    acc = {"episodes": 0.0, "success": 0.0, "return": 0.0}
    seconds = seconds_offset
    edge = bin_steps
    last_steps = 0
    if not metrics_path.is_file():
        return points
    for line in metrics_path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by a kill; the rest of the file is still good
        if "env_steps" not in row:
            continue
        if until is not None and int(row["env_steps"]) > until:
            break
        last_steps = int(row["env_steps"])
        seconds += float(row.get("time/collect_s", 0.0)) + float(row.get("time/learn_s", 0.0))
        n = float(row.get("episode/count", 0.0))
        if n > 0 and not math.isnan(float(row.get("episode/success", math.nan))):
            acc["episodes"] += n
            acc["success"] += n * float(row["episode/success"])
            acc["return"] += n * float(row["episode/return"])
        if last_steps >= edge:
            points.append(_point(last_steps + offset, acc, seconds))
            acc = dict.fromkeys(acc, 0.0)
            edge = (last_steps // bin_steps + 1) * bin_steps
    if acc["episodes"] > 0:
        points.append(_point(last_steps + offset, acc, seconds))
    return points


def curve_before(data: dict[str, Any]) -> list[dict[str, float]]:
    """The training curve behind the policy a run started from (`run.init_from`): the one its shipped file
    carried, else, when it started from another run's checkpoint, that run's `metrics.jsonl` up to the
    checkpoint's steps (and, the same way, whatever that run started from); [] when neither is there."""
    entry = next(
        (e for e in reversed(data.get("provenance", [])) if e.get("init_curve") or e.get("init_from")), None
    )
    if entry is None:
        return []
    # Another run's checkpoint first: its own metrics, then what it started from. Its recorded
    # `init_curve` holds only what was behind that run's start (a run from a warm-start file: that
    # file's source), and stands in when the run's directory is gone.
    found = _run_parent(entry.get("init_from"))
    if found is None:
        # a shipped file's curve, or a file derived from one (skills.warmstart), or a gone run's start
        return list(entry.get("init_curve") or [])
    parent, metrics = found
    # the run may have gone on after the checkpoint this one started from was read
    behind = checkpoint.trained_env_steps(parent) - int(parent["counters"]["env_steps"])
    until = int(entry.get("init_env_steps", checkpoint.trained_env_steps(parent))) - behind
    return run_curve(parent, metrics, until)


def _run_parent(source: str | None) -> tuple[dict[str, Any], Path] | None:
    """The checkpoint and `metrics.jsonl` of the run `source` (an `init_from`) names, or None when it
    names no run's checkpoint with its metrics beside it (a policy file, a moved or deleted run)."""
    if not source:
        return None
    metrics = _run_dir(Path(source)) / "metrics.jsonl"
    if not metrics.is_file():
        return None
    try:
        parent = checkpoint.read(source)
    except checkpoint.CheckpointError:
        return None
    return (parent, metrics) if "counters" in parent else None  # a policy file has no counters


def run_curve(data: dict[str, Any], metrics_path: Path, until: int | None = None) -> list[dict[str, float]]:
    """The training curve of the run whose checkpoint is `data`: what is behind its start
    (`curve_before`), then its own `metrics.jsonl` (up to `until` of its own env steps), offset by the
    steps and wall-clock behind it."""
    before = curve_before(data)
    seconds = float(before[-1]["seconds"]) if before else 0.0
    behind = checkpoint.trained_env_steps(data) - int(data["counters"]["env_steps"])
    return before + training_curve(metrics_path, offset=behind, seconds_offset=seconds, until=until)


def _run_dir(source: Path) -> Path:
    """The run directory of a run directory or of one of its checkpoint files."""
    return source if source.is_dir() else source.parent.parent


def _point(steps: int, acc: dict[str, float], seconds: float) -> dict[str, float]:
    n = acc["episodes"]
    return {
        "env_steps": steps,
        "success": acc["success"] / n if n else math.nan,
        "return": acc["return"] / n if n else math.nan,
        "episodes": n,
        "seconds": round(seconds, 1),
    }


def ship(source: str | Path, directory: Path = CHECKPOINT_DIR, force: bool = False) -> Path:
    """Exports the policy of `source` (a run directory or a checkpoint file) into `directory`."""
    source = Path(source)
    data = checkpoint.read(source)
    name = shipped_name(data.get("meta") or {})
    run_dir = _run_dir(source)
    target = directory / f"{name}.pt"
    if target.exists():
        if not force:
            raise ShipError(
                f"{target} exists (shipped before); pass --force to replace it (it is kept as a .bak)"
            )
        shutil.copy2(target, target.with_name(f"{target.name}.bak-{time.strftime('%Y%m%d-%H%M%S')}"))
    directory.mkdir(parents=True, exist_ok=True)
    checkpoint.export_policy(data, target)
    shipped = checkpoint.load(target)
    total = checkpoint.trained_env_steps(data)
    # A shipped file shipped again (a kept copy) carries its whole curve; a run started from another policy
    # (`run.init_from`): that policy's curve, then this run's.
    shipped["curve"] = (
        list(data["curve"]) if data.get("curve") else run_curve(data, run_dir / "metrics.jsonl")
    )
    shipped["shipped"] = {
        **checkpoint.code_version(),
        "from_run": str(run_dir if source.is_dir() else source),
        "env_steps": total,
    }
    checkpoint.atomic_save(shipped, target)
    return target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.ship", description=__doc__.split("\n\n")[0])
    parser.add_argument("source", help="run directory or checkpoint file of a skill training run")
    parser.add_argument("--dir", type=Path, default=CHECKPOINT_DIR, help="where shipped skills live")
    parser.add_argument("--force", action="store_true", help="replace a shipped file (the old one is kept)")
    args = parser.parse_args(argv)
    try:
        path = ship(args.source, args.dir, args.force)
    except (ShipError, checkpoint.CheckpointError) as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    data = checkpoint.load(path)
    print(
        f"shipped {path} ({path.stat().st_size / 1024:.0f} KiB, {data['shipped']['env_steps']:,} env steps, "
        f"{len(data['curve'])} curve points)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
