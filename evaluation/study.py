"""`tpsrl-eval-study`: every HAB scenario x every available agent variant, a Figure-6-style plot and a table.

    tpsrl-eval-study episodes=100                         # all scenarios, every variant that can run
    tpsrl-eval-study episodes=5 nonav_scripted=true       # NoNav with scripted pick/place as well
    tpsrl-eval-study episodes=5 fill_scripted=true        # learned variants: scripted skills where none is shipped
    tpsrl-eval-study figure=docs/hab_stages.png table=docs/hab_results.md
    tpsrl-eval-study scenarios=tidy_house agents=tp_spa reuse=runs/eval/tidy_house-tp_spa-0000   # plot a finished run

A learned variant whose checkpoints are missing is skipped with the reason printed. Output: the plot
(PNG), a Markdown results table, one `tpsrl-eval` run directory per pair, and the evaluation throughput
(env steps/s over all processes); the last line is one JSON object.
"""

from __future__ import annotations

import json
import sys
import time
from dataclasses import asdict, dataclass, fields, replace
from pathlib import Path
from typing import Any

from omegaconf import OmegaConf
from omegaconf.errors import OmegaConfBaseException

from evaluation.agent import saved_chain
from evaluation.config import ConfigError, EvalConfig
from evaluation.episodes import scenario_names
from evaluation.plot import plot_stages
from evaluation.policies import AGENTS, DOMAIN_SKILLS, MissingCheckpointError
from evaluation.run import SCENARIO_SKILLS, RunDirError, evaluate, saved_config
from tpsrl.engine.inference import single_thread_acting

__all__ = ["StudyConfig", "main", "markdown_table", "run_study"]


@dataclass
class StudyConfig:
    """The study: which scenarios and variants, how many episodes, where outputs go."""

    episodes: int = 100
    """Episodes per scenario x variant."""
    scenarios: str = ""
    """Comma-separated scenarios (empty: all)."""
    agents: str = ""
    """Comma-separated agent variants (empty: all in evaluation.policies.AGENTS)."""
    nonav_scripted: bool = False
    """Also run tp_srl_nonav with scripted pick/place (the NoNav wiring check) when its learned skills are missing."""
    fill_scripted: bool = False
    """Learned variants run the skills that have no shipped checkpoint with their scripted controllers (the
    variant is labelled with its learned ones, e.g. `tp_srl (learned: pick; rest scripted)`) instead of
    being skipped."""
    processes: int = 0
    """Worker processes per evaluation (0: all cores)."""
    seed: int = 0
    """Seed of the episode sets."""
    out_dir: str = "runs/eval_study"
    """Parent of the study directory (a new one per study); evaluations go inside it."""
    figure: str = ""
    """Where to write the PNG (empty: <study dir>/hab_stages.png)."""
    table: str = ""
    """Where to write the Markdown table (empty: <study dir>/hab_results.md)."""
    progress: bool = True
    """Progress bars."""
    videos: int = 0
    """mp4 videos of the first K episodes of every evaluation."""
    reuse: str = ""
    """Comma-separated `tpsrl-eval` run directories taken for their scenario x agent instead of a fresh
    evaluation (resumed: missing episodes are run, finished ones are read back), e.g. the long runs behind
    the figure in docs/."""


def _names(text: str, accepted: list[str], key: str) -> list[str]:
    out = [s.strip() for s in text.split(",") if s.strip()] or accepted
    for s in out:
        if s not in accepted:
            raise ConfigError(f"{key}: unknown name {s!r}; accepted: {accepted}")
    return out


def _study_dir(parent: str) -> Path:
    root = Path(parent)
    root.mkdir(parents=True, exist_ok=True)
    k = 0
    while (root / f"study-{k:04d}").exists():
        k += 1
    d = root / f"study-{k:04d}"
    d.mkdir()
    return d


def _label(agent: str, scenario: str, scripted: list[str], checkpoints: str = "") -> str:
    """`agent`, or `agent (learned: a,b; rest scripted)` for a learned variant with scripted skills; a run
    that took checkpoints other than the shipped ones (`tpsrl-eval checkpoints=`) says which, e.g.
    `tp_srl_nobase [open_fridge: open_fridge_nobase_h2/open_fridge_nobase.pt]`."""
    label = agent
    if scripted and AGENTS[agent].learned:
        domain = DOMAIN_SKILLS[AGENTS[agent].domain]
        learned = [k for k in SCENARIO_SKILLS[scenario] if k in domain and k not in scripted]
        label = f"{agent} (learned: {','.join(learned) or 'none'}; rest scripted)"
    taken = EvalConfig(checkpoints=checkpoints).checkpoint_map
    if taken:
        label += (
            " [" + "; ".join(f"{k}: {Path(p).parent.name}/{Path(p).name}" for k, p in taken.items()) + "]"
        )
    return label


def _reused(cfg: StudyConfig) -> dict[tuple[str, str], tuple[Path, dict[str, Any]]]:
    """(scenario, agent) -> (run dir, its saved config) for every `reuse` directory."""
    out: dict[tuple[str, str], tuple[Path, dict[str, Any]]] = {}
    for d in (Path(x.strip()) for x in cfg.reuse.split(",") if x.strip()):
        try:
            saved = saved_config(d)
        except RunDirError as e:
            raise ConfigError(f"reuse: {e}") from None
        key = (saved["scenario"], saved["agent"])
        if key in out:
            raise ConfigError(f"reuse: {out[key][0]} and {d} are both {key[0]} / {key[1]}")
        out[key] = (d, saved)
    return out


def _one(cfg: StudyConfig, scenario: str, agent: str, study: Path) -> dict[str, Any] | None:
    base = EvalConfig(
        scenario,
        agent,
        cfg.episodes,
        cfg.seed,
        processes=cfg.processes,
        out_dir=str(study),
        progress=cfg.progress,
        videos=cfg.videos,
    )
    reused = _reused(cfg).get((scenario, agent))
    if reused is not None:
        d, saved = reused
        keep = ("episodes", "seed", "episodes_file", "scripted", "checkpoints")
        record, _ = evaluate(
            replace(base, resume=str(d), videos=0, chain=saved_chain(saved), **{k: saved[k] for k in keep})
        )
        scripted = [x for x in saved["scripted"].split(",") if x]
        record["agent"] = _label(agent, scenario, scripted, saved["checkpoints"])
        try:  # the throughput measured when it ran (written by tpsrl-eval), not this study's read-back
            ran = json.loads((d / "summary.json").read_text())
            record["reused_throughput"] = {k: ran.get(k) for k in ("env_steps_per_second", "processes")}
        except (OSError, ValueError):
            record["reused_throughput"] = None
        return record
    try:
        record, _ = evaluate(base)
        return record
    except MissingCheckpointError as e:
        if cfg.fill_scripted:
            record, _ = evaluate(replace(base, scripted=",".join(e.missing)))
            record["agent"] = _label(agent, scenario, list(e.missing))
            return record
        if not (agent == "tp_srl_nonav" and cfg.nonav_scripted):
            print(f"skipped {scenario} / {agent}: {str(e).splitlines()[0]}")
            return None
    record, _ = evaluate(
        replace(base, scripted="pick,place,open_fridge,open_drawer,close_fridge,close_drawer")
    )
    record["agent"] = f"{agent} (scripted skills)"
    return record


def markdown_table(records: dict[str, list[dict[str, Any]]]) -> str:
    """Full-task success with its 95% interval and the last stage reached, per scenario x variant."""
    lines = [
        "| scenario | agent | episodes | full success (95% CI) | stage success | top failures |",
        "|---|---|---|---|---|---|",
    ]
    for scenario, runs in records.items():
        for r in runs:
            lo, hi = r["full_success_ci"]
            stages = ", ".join(
                f"{n} {100 * v:.0f}%" for n, v in zip(r["stage_names"], r["stage_success"], strict=True)
            )
            fails = ", ".join(f"{k} x{v}" for k, v in list(r["failures"].items())[:3]) or "-"
            lines.append(
                f"| {scenario} | {r['agent']} | {r['episodes']} | {100 * r['full_success']:.0f}% "
                f"[{100 * lo:.0f}, {100 * hi:.0f}] | {stages} | {fails} |"
            )
    return "\n".join(lines) + "\n"


def run_study(cfg: StudyConfig) -> dict[str, Any]:
    """Run every pair, write the plot and the table; returns the JSON record."""
    scenarios = _names(cfg.scenarios, scenario_names(), "scenarios")
    agents = _names(cfg.agents, list(AGENTS), "agents")
    for (scenario, agent), (d, _) in _reused(cfg).items():
        if scenario not in scenarios or agent not in agents:
            raise ConfigError(f"reuse: {d} is {scenario} / {agent}, which is not among the study's pairs")
    study = _study_dir(cfg.out_dir)
    records: dict[str, list[dict[str, Any]]] = {s: [] for s in scenarios}
    t0 = time.perf_counter()
    for s in scenarios:
        for a in agents:
            r = _one(cfg, s, a, study)
            if r is not None:
                records[s].append(r)
    wall = time.perf_counter() - t0
    steps = sum(r["env_steps_run"] for runs in records.values() for r in runs)  # stepped by this study
    figure = plot_stages(records, Path(cfg.figure) if cfg.figure else study / "hab_stages.png")
    table = Path(cfg.table) if cfg.table else study / "hab_results.md"
    table.parent.mkdir(parents=True, exist_ok=True)
    table.write_text(markdown_table(records))
    return {
        "study_dir": str(study),
        "figure": str(figure),
        "table": str(table),
        "env_steps": steps,
        "seconds": wall,
        "env_steps_per_second": steps / wall if wall > 0 and steps else None,
        "reused_throughput": {
            f"{s}/{r['agent']}": r["reused_throughput"]
            for s, runs in records.items()
            for r in runs
            if "reused_throughput" in r
        },
        "runs": {s: {r["agent"]: r["full_success"] for r in runs} for s, runs in records.items()},
        "config": asdict(cfg),
    }


def parse_study(argv: list[str]) -> StudyConfig:
    accepted = [f.name for f in fields(StudyConfig)]
    for a in argv:
        if "=" not in a:
            raise ConfigError(f"argument {a!r}: expected key=value; accepted keys: {accepted}")
    try:
        cfg = OmegaConf.to_object(
            OmegaConf.merge(OmegaConf.structured(StudyConfig), OmegaConf.from_dotlist(argv))
        )
    except OmegaConfBaseException as e:
        raise ConfigError(f"{str(e).splitlines()[0]}; accepted keys: {accepted}") from None
    assert isinstance(cfg, StudyConfig)
    if cfg.episodes < 1:
        raise ConfigError(f"episodes: {cfg.episodes} must be >= 1")
    return cfg


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    single_thread_acting()
    try:
        record = run_study(parse_study(argv))
    except ConfigError as e:
        print(f"tpsrl-eval-study: {e}", file=sys.stderr)
        return 2
    print(Path(record["table"]).read_text())
    print(f"figure: {record['figure']}; table: {record['table']}")
    if record["env_steps_per_second"]:
        print(
            f"evaluation throughput: {record['env_steps_per_second']:.0f} env steps/s over all processes "
            f"({record['env_steps']} steps in {record['seconds']:.0f} s)"
        )
    for pair, ran in record["reused_throughput"].items():
        if ran and ran["env_steps_per_second"]:
            print(
                f"reused {pair}: {ran['env_steps_per_second']:.0f} env steps/s over {ran['processes']} "
                "process(es) when it ran"
            )
    print(json.dumps(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
