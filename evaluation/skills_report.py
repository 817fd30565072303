"""`tpsrl-eval-skills`: every shipped skill evaluated on held-out layouts, beside its training curve.

    tpsrl-eval-skills                                       # every skills/checkpoints/*.pt, 200 episodes each
    tpsrl-eval-skills skills=pick,pick_nobase episodes=50
    tpsrl-eval-skills checkpoint_dir=/tmp/shipped out_dir=/tmp/eval_skills progress=false
    tpsrl-eval-skills force_measure=peak                    # every skill by HAB's force rule
    tpsrl-eval-skills skills=pick_nobase,place_nobase nobase_spawn=habitat2   # Habitat 2.0's per-skill starts

Shipped skills are the files `python -m skills.ship` writes (`<skill>.pt`, `<skill>_nobase.pt`). Each is run
on its own task by `skills.evaluate.evaluate` (its env built from the checkpoint's task config, so a
`_nobase` skill runs without base movement). Every run writes a new directory `<out_dir>/skills-<time>`:
`skills.md` (the table), `results.json` (everything) and `curve_<skill>.png` (training success and return
against env steps, `<skill>` and `<skill>_nobase` together, the held-out success as a marker). The output
ends with the table and one JSON object on the last line: `skills` (name -> success, episodes,
env_steps_trained, ci) and `run_dir`.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from evaluation.config import ConfigError
from skills.config import FORCE_MEASURES, SPAWN_RULES
from skills.evaluate import EVAL_SEED, SkillResult, evaluate
from skills.learned import SkillCheckpointError
from skills.ship import CHECKPOINT_DIR, ShipError, shipped_name
from skills.splits import SPLITS
from tpsrl.engine import checkpoint
from tpsrl.engine.inference import single_thread_acting

__all__ = ["TARGETS", "SkillsReportConfig", "main", "markdown_table", "parse_overrides", "run_report"]

TARGETS: dict[str, float] = {
    "pick": 0.90,
    "place": 0.90,
    "nav_to_obj": 0.90,
    "open_fridge": 0.85,
    "close_fridge": 0.85,
    "open_drawer": 0.85,
    "close_drawer": 0.85,
}
"""Held-out success each skill must reach (issue 12); met when the success rate is at least this."""

NOBASE_SPAWN_SKILLS = ("pick", "place")
"""Skills whose no-base variant `nobase_spawn` starts elsewhere (the others' tasks take one spawn rule)."""


@dataclass
class SkillsReportConfig:
    """Which shipped skills to evaluate, on how many episodes, and where the report goes."""

    episodes: int = 200
    """Episodes per skill."""
    skills: str = ""
    """Comma-separated shipped names (pick, pick_nobase, ...); empty: every file in `checkpoint_dir`."""
    checkpoint_dir: str = ""
    """Where shipped skills live; empty: the package's (`skills.ship.CHECKPOINT_DIR`)."""
    out_dir: str = "runs/eval_skills"
    """Parent of the report directories (a new `skills-<time>` one per run)."""
    split: str = "heldout"
    """Layouts to evaluate on: heldout or train."""
    seed: int = EVAL_SEED
    """Seed of the first episode (episode k uses seed + k, the same for every skill)."""
    progress: bool = True
    """Print a line per skill as it starts and ends (on stderr)."""
    sample: bool = False
    """Learned skills sample their actions (seeded per episode) instead of acting on the mean."""
    force_measure: str = ""
    """What the force rule reads of the arm's contacts for every skill: peak (the largest contact, HAB's
    RobotForce) or sum (all of them); empty: each skill's own, as it was trained (docs/skills.md)."""
    nobase_spawn: str = ""
    """Where pick and place without base movement start the robot (a `skill.spawn_rule`): habitat2 is
    Habitat 2.0's per-skill spawn, where the original TP-SRL's no-base skills started (the free floor nearest
    the target, facing it); empty: each skill's own (within 1.0 m for the shipped ones). Other skills keep
    theirs."""


@dataclass
class Shipped:
    """One shipped file, as read before any evaluation runs."""

    name: str
    path: Path
    skill: str
    base_movement: bool
    env_steps: int
    curve: list[dict[str, float]]
    shipped: dict[str, Any]


# ------------------------------------------------------------------------------------------ config
def _accepted() -> list[str]:
    return [f.name for f in fields(SkillsReportConfig)]


def parse_overrides(argv: list[str]) -> SkillsReportConfig:
    """`key=value` overrides into a checked `SkillsReportConfig`.

    Raises:
        ConfigError: a malformed override, an unknown key (listing the accepted ones) or a bad value.
    """
    for a in argv:
        if "=" not in a or a.startswith("="):
            raise ConfigError(f"argument {a!r}: expected key=value; accepted keys: {_accepted()}")
    try:
        merged = OmegaConf.merge(OmegaConf.structured(SkillsReportConfig), OmegaConf.from_dotlist(argv))
        cfg = OmegaConf.to_object(merged)
    except OmegaConfBaseException as e:
        key = getattr(e, "full_key", None) or "?"
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ConfigError(f"{key}: {first}; accepted keys: {_accepted()}") from None
    assert isinstance(cfg, SkillsReportConfig)
    if cfg.episodes < 1:
        raise ConfigError(f"episodes: {cfg.episodes} must be >= 1")
    if cfg.split not in SPLITS:
        raise ConfigError(f"split: unknown split {cfg.split!r}; accepted: {sorted(SPLITS)}")
    if cfg.force_measure and cfg.force_measure not in FORCE_MEASURES:
        raise ConfigError(
            f"force_measure: {cfg.force_measure!r} not accepted; use one of {list(FORCE_MEASURES)} "
            "or leave it empty (each skill's own)"
        )
    if cfg.nobase_spawn and cfg.nobase_spawn not in SPAWN_RULES:
        raise ConfigError(
            f"nobase_spawn: {cfg.nobase_spawn!r} not accepted; use one of {list(SPAWN_RULES)} "
            "or leave it empty (each skill's own)"
        )
    return cfg


def _task_overrides(cfg: SkillsReportConfig, s: Shipped) -> dict[str, str]:
    """The task fields this report sets for `s` over its checkpoint's own: the force rule for every skill,
    the spawn rule for pick and place without base movement."""
    rule = {"force_measure": cfg.force_measure} if cfg.force_measure else {}  # else each skill's own
    if cfg.nobase_spawn and not s.base_movement and s.skill in NOBASE_SPAWN_SKILLS:
        rule["spawn_rule"] = cfg.nobase_spawn
    return rule


def read_shipped(cfg: SkillsReportConfig) -> list[Shipped]:
    """The shipped files to evaluate, checked (readable, a skill's, named as `skills.ship` names it).

    Raises:
        ConfigError: no checkpoint directory or no shipped file in it, an unknown name, a bad file.
    """
    directory = Path(cfg.checkpoint_dir) if cfg.checkpoint_dir else CHECKPOINT_DIR
    available = sorted(p.stem for p in directory.glob("*.pt")) if directory.is_dir() else []
    if not available:
        state = "is empty (no *.pt)" if directory.is_dir() else "does not exist"
        raise ConfigError(
            f"checkpoint_dir: {directory} {state}; ship a trained skill first: python -m skills.ship <run dir>"
        )
    names = [s.strip() for s in cfg.skills.split(",") if s.strip()] or available
    for n in names:
        if n not in available:
            raise ConfigError(f"skills: {n!r} is not shipped in {directory}; accepted: {available}")
    out = []
    for n in dict.fromkeys(names):  # a name given twice runs once
        path = directory / f"{n}.pt"
        try:
            data = checkpoint.read(path)
            meta = data.get("meta") or {}
            expected = shipped_name(meta)
        except (checkpoint.CheckpointError, ShipError) as e:
            raise ConfigError(f"skills: {n}: {e}") from None
        if expected != n:
            raise ConfigError(f"skills: {path} holds {expected!r} (by its meta), not {n!r}; rename it")
        out.append(
            Shipped(
                name=n,
                path=path,
                skill=meta["skill"],
                base_movement=bool(meta.get("skill_config", {}).get("base_movement", True)),
                env_steps=checkpoint.trained_env_steps(data),
                curve=list(data.get("curve") or []),
                shipped=dict(data.get("shipped") or {}),
            )
        )
    return out


def report_directory(parent: str) -> Path:
    """A new `<parent>/skills-YYYYmmdd-HHMMSS[-k]` directory; an existing one is never reused."""
    root = Path(parent)
    root.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for k in range(1000):
        d = root / (f"skills-{stamp}" if k == 0 else f"skills-{stamp}-{k}")
        try:
            d.mkdir()
            return d
        except FileExistsError:
            continue
    raise ConfigError(f"out_dir: {root} has no free directory name for {stamp}")


# ------------------------------------------------------------------------------------------ report
def _record(s: Shipped, r: SkillResult) -> dict[str, Any]:
    target = TARGETS.get(s.skill)
    return {
        **asdict(r),
        "name": s.name,
        "checkpoint": str(s.path),
        "base_movement": s.base_movement,
        "env_steps_trained": s.env_steps,
        "training_hours": s.curve[-1]["seconds"] / 3600 if s.curve else None,
        "target": target,
        "target_met": None if target is None else r.success >= target,
        "curve": s.curve,
        "shipped": s.shipped,
    }


def markdown_table(records: dict[str, dict[str, Any]]) -> str:
    """One row per shipped skill: training, held-out success with its 95% interval, failures, target."""
    lines = [
        "| skill | base movement | env steps trained | training time | success (95% CI) | episodes "
        "| mean steps | failures | target |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, r in records.items():
        hours = "-" if r["training_hours"] is None else f"{r['training_hours']:.1f} h"
        fails = ", ".join(f"{k} {v}" for k, v in sorted(r["failures"].items(), key=lambda kv: -kv[1])) or "-"
        met = "met" if r["target_met"] else "not met"
        target = "-" if r["target"] is None else f"{r['target']:.0%} ({met})"
        lines.append(
            f"| {name} | {'yes' if r['base_movement'] else 'no'} | {r['env_steps_trained']:,} | {hours} "
            f"| {r['success']:.1%} [{r['ci_low']:.1%}, {r['ci_high']:.1%}] | {r['episodes']} "
            f"| {r['mean_steps']:.0f} | {fails} | {target} |"
        )
    return "\n".join(lines) + "\n"


def plot_curves(skill: str, records: list[dict[str, Any]], path: Path) -> Path:
    """Training success and return against env steps, one line per shipped variant of `skill`, with the
    evaluated success and its 95% interval as a marker at the variant's final step."""
    from matplotlib.figure import Figure  # no pyplot: no global backend state, renders with Agg

    fig = Figure(figsize=(10, 4))
    ax_s, ax_r = fig.subplots(1, 2)
    for i, r in enumerate(records):
        colour = f"C{i}"
        xs = [p["env_steps"] for p in r["curve"]]
        ax_s.plot(xs, [p["success"] for p in r["curve"]], color=colour, label=f"{r['name']} (training)")
        ax_r.plot(xs, [p["return"] for p in r["curve"]], color=colour, label=r["name"])
        err = [[r["success"] - r["ci_low"]], [r["ci_high"] - r["success"]]]
        ax_s.errorbar(
            [r["env_steps_trained"]],
            [r["success"]],
            yerr=err,
            fmt="o",
            color=colour,
            capsize=4,
            label=f"{r['name']} ({r['split']}, n={r['episodes']})",
        )
    if skill in TARGETS:
        ax_s.axhline(TARGETS[skill], color="grey", linestyle=":", label=f"target {TARGETS[skill]:.0%}")
    ax_s.set(title=f"{skill}: success", xlabel="env steps", ylabel="success rate", ylim=(-0.02, 1.02))
    ax_r.set(title=f"{skill}: training return", xlabel="env steps", ylabel="episode return")
    ax_s.legend(fontsize=7)
    ax_r.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return path


def _progress(cfg: SkillsReportConfig, text: str) -> None:
    if cfg.progress:
        print(text, file=sys.stderr, flush=True)


def run_report(cfg: SkillsReportConfig) -> dict[str, Any]:
    """Evaluates every selected shipped skill and writes the report; returns `results.json`'s record."""
    shipped = read_shipped(cfg)  # every file checked before anything runs or is written
    run_dir = report_directory(cfg.out_dir)
    records: dict[str, dict[str, Any]] = {}
    t0 = time.perf_counter()
    for k, s in enumerate(shipped, 1):
        _progress(cfg, f"[{k}/{len(shipped)}] {s.name}: {cfg.episodes} episodes on {cfg.split} layouts")
        r = evaluate(
            str(s.path), cfg.episodes, cfg.split, cfg.seed, sample=cfg.sample, **_task_overrides(cfg, s)
        )
        records[s.name] = _record(s, r)
        _progress(cfg, f"[{k}/{len(shipped)}] {s.name}: success {r.success:.1%} in {r.seconds:.0f} s")
    figures = {}
    for skill in dict.fromkeys(s.skill for s in shipped):
        variants = [records[s.name] for s in shipped if s.skill == skill]
        figures[skill] = str(plot_curves(skill, variants, run_dir / f"curve_{skill}.png"))
    table = markdown_table(records)
    (run_dir / "skills.md").write_text(table)
    record = {
        "run_dir": str(run_dir),
        "config": asdict(cfg),
        "seconds": time.perf_counter() - t0,
        "figures": figures,
        "skills": records,
    }
    (run_dir / "results.json").write_text(json.dumps(record, indent=1))
    return record


def summary_line(record: dict[str, Any]) -> str:
    """The last output line: per skill its success, episodes, training steps and interval; the run dir."""
    skills = {
        n: {
            "success": r["success"],
            "episodes": r["episodes"],
            "env_steps_trained": r["env_steps_trained"],
            "ci": [r["ci_low"], r["ci_high"]],
        }
        for n, r in record["skills"].items()
    }
    return json.dumps({"skills": skills, "run_dir": record["run_dir"]})


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    single_thread_acting()
    try:
        record = run_report(parse_overrides(argv))
    except (ConfigError, SkillCheckpointError) as e:
        print(f"tpsrl-eval-skills: {e}", file=sys.stderr)
        return 2
    print(markdown_table(record["skills"]))
    print(f"report: {record['run_dir']} (skills.md, results.json, curve_*.png); {record['seconds']:.0f} s")
    print(summary_line(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
