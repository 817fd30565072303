"""`tpsrl-eval`: evaluate one agent variant on one HAB scenario.

Episodes run in worker processes (`processes`, default all cores; 1 runs them in this process with the
same code). Each finished episode is appended at once to `<run dir>/results.jsonl`, so a run stopped by
Ctrl-C keeps every finished episode, and `resume=<run dir>` runs only the missing ones. A run directory
is never reused without `resume=`. The output ends with the summary table and one JSON object on the
last line (`scenario`, `agent`, `episodes`, `full_success`, `stage_names`, `stage_success`, ...).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import signal
import sys
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any

import torch

from evaluation.agent import HierarchicalAgent, make_episode_env, saved_chain
from evaluation.config import ConfigError, EvalConfig, parse_overrides
from evaluation.episodes import episode_file
from evaluation.metrics import EpisodeResult, summarize, summary_table
from evaluation.policies import CHECKPOINT_DIR, MissingCheckpointError, SkillSources, skill_sources
from skills.config import acting_config
from skills.learned import SkillCheckpointError, load_skill_policy
from skills.registry import task_class
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.env import RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec, EpisodeSpecError, load_episodes
from tpsrl.sim.sensors import ARM_ACTIONS

__all__ = ["evaluate", "main", "run_directory"]

SCENARIO_SKILLS: dict[str, tuple[str, ...]] = {
    "tidy_house": ("nav_to_obj", "pick", "place"),  # its containers start open
    "prepare_groceries": ("nav_to_obj", "pick", "place"),
    "set_table": ("nav_to_obj", "pick", "place", "open_fridge", "open_drawer"),
}
"""Skills a scenario's plans may call (checked for checkpoints before anything runs)."""


class RunDirError(ValueError):
    """A resume directory that is missing or belongs to another evaluation."""


# ------------------------------------------------------------------------------------------ workers
_WORKER: dict[str, Any] = {}
_ENVS: dict[tuple[str, int, str], RearrangeEnv] = {}
"""This process's episode envs by (kind, head depth, arm speed), made once: they outlive a run (see
`_episode_env`)."""


def _checkpoint_dir(cfg: EvalConfig) -> Path:
    return Path(cfg.checkpoint_dir) if cfg.checkpoint_dir else CHECKPOINT_DIR


def _init_worker(cfg: EvalConfig, run_dir: str) -> None:
    """Build the agent and env once per worker; Ctrl-C is the parent's to handle."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if multiprocessing.parent_process() is not None:
        torch.set_num_threads(1)  # one process per core: intra-op threads would only contend
    sources = skill_sources(
        cfg.agent, cfg.scripted_skills, cfg.checkpoint_map, _needed(cfg), _checkpoint_dir(cfg)
    )
    _WORKER.update(cfg=cfg, run_dir=Path(run_dir), agent=HierarchicalAgent(cfg.agent, sources, cfg.chain))


def _episode_env(kind: str, depth: int, arm_speed: str) -> RearrangeEnv:
    """This worker's episode env of `kind` rendering `depth` with `arm_speed`, made once. Keyed by both: a
    run in the calling process (one process, or one episode) keeps its envs across runs, and a study's
    next agent may see head depth where the one before did not."""
    env = _ENVS.get((kind, depth, arm_speed))
    if env is None:
        env = _ENVS[(kind, depth, arm_speed)] = make_episode_env(depth, arm_speed)
    return env


def _run_episode(index: int, spec_json: str) -> dict[str, Any]:
    """One episode in this worker (with a video for the first `videos`)."""
    cfg: EvalConfig = _WORKER["cfg"]
    agent: HierarchicalAgent = _WORKER["agent"]
    spec = EpisodeSpec.from_json(spec_json)
    recorder = None
    if index < cfg.videos:
        from evaluation.video import VIDEO_DEPTH, EpisodeRecorder

        # A learned skill with depth needs the size it was trained on.
        depth = cfg.chain.depth or VIDEO_DEPTH
        env, recorder = _episode_env("video_env", depth, cfg.chain.arm_speed), EpisodeRecorder()
    else:
        env = _episode_env("env", cfg.chain.depth, cfg.chain.arm_speed)
    result = agent.run(env, spec, cfg.scenario, index, observer=recorder)
    if recorder is not None:
        recorder.write(_WORKER["run_dir"] / "videos" / f"episode_{index:04d}.mp4")
    return result.to_dict()


def _check_learned(sources: SkillSources, needed: tuple[str, ...], arm_speed: str) -> dict[str, int]:
    """Load every learned checkpoint the scenario needs once: a file of another skill fails here; a skill
    that moves the arm, trained under another arm speed than the episode's `arm_speed`, is named on stderr
    (it runs under the episode's). Returns the head depth size of each learned skill trained with depth."""
    depths, other_speed = {}, {}
    for skill in needed:
        src = sources.sources.get(skill, "scripted")
        if src != "scripted":
            config = load_skill_policy(src, skill=skill).config
            if config.depth:
                depths[skill] = config.depth
            # Its acting config: the training episode files (start banks) need not exist here.
            moves_arm = set(ARM_ACTIONS) & set(task_class(skill)(acting_config(config)).env_config().actions)
            if moves_arm and config.arm_speed != arm_speed:
                other_speed[skill] = config.arm_speed
    if other_speed:
        print(
            f"tpsrl-eval: chain.arm_speed={arm_speed}; these learned skills were trained under another arm "
            f"speed and run under {arm_speed}: {other_speed}",
            file=sys.stderr,
        )
    return depths


def episode_depth(depth: int, learned: dict[str, int]) -> int:
    """Head depth resolution of the episode env: that of the learned skills trained with depth (`learned`,
    one size for all), else `depth` (chain.depth). Two sizes, or a chain.depth that differs from theirs,
    raise ConfigError naming the skills."""
    sizes = set(learned.values())
    if len(sizes) > 1 or (sizes and depth and depth not in sizes):
        raise ConfigError(
            f"chain.depth: {depth}; the learned skills see head depth at different sizes {learned}: "
            "the episode renders one size (retrain or pass checkpoints of one depth)"
        )
    return sizes.pop() if sizes else depth


def _needed(cfg: EvalConfig) -> tuple[str, ...]:
    return SCENARIO_SKILLS[cfg.scenario]


# ------------------------------------------------------------------------------------------ run dir
def saved_config(run_dir: str | Path) -> dict[str, Any]:
    """The `config.json` a `tpsrl-eval` run directory was started with (RunDirError if it has none)."""
    try:
        return json.loads((Path(run_dir) / "config.json").read_text())
    except (OSError, ValueError):
        raise RunDirError(f"{run_dir} is not a tpsrl-eval run directory (no readable config.json)") from None


def run_directory(cfg: EvalConfig) -> Path:
    """A fresh run directory (`<out_dir>/<scenario>-<agent>-NNNN`), or the resume one after checking it."""
    if cfg.resume:
        d = Path(cfg.resume)
        try:
            saved = saved_config(d)
        except RunDirError as e:
            raise RunDirError(f"resume: {e}") from None
        for key in ("scenario", "agent", "seed", "episodes_file", "scripted", "checkpoints"):
            if saved.get(key) != getattr(cfg, key):
                raise RunDirError(
                    f"resume: {d} was run with {key}={saved.get(key)!r}, not {getattr(cfg, key)!r}"
                )
        ran = asdict(saved_chain(saved))
        for key, value in asdict(cfg.chain).items():  # the finished episodes were chained this way
            if ran[key] != value:
                raise RunDirError(f"resume: {d} was run with chain.{key}={ran[key]!r}, not {value!r}")
        return d
    parent = Path(cfg.out_dir)
    parent.mkdir(parents=True, exist_ok=True)
    for k in range(10_000):
        d = parent / f"{cfg.scenario}-{cfg.agent}-{k:04d}"
        try:
            d.mkdir()
        except FileExistsError:
            continue
        (d / "config.json").write_text(json.dumps(asdict(cfg), indent=1))
        return d
    raise RunDirError(f"out_dir: {parent} has no free run directory name left")


def _episodes(cfg: EvalConfig, run_dir: Path) -> list[EpisodeSpec]:
    path = (
        Path(cfg.episodes_file)
        if cfg.episodes_file
        else episode_file(cfg.scenario, cfg.episodes, cfg.seed, run_dir)
    )
    eps = load_episodes(path)
    if len(eps) < cfg.episodes:
        raise EpisodeSpecError(f"{path}: holds {len(eps)} episodes, episodes={cfg.episodes} asked for")
    return eps[: cfg.episodes]


def finished_results(run_dir: Path) -> dict[int, EpisodeResult]:
    """Results already in the run directory, by episode index (a torn last line from a kill is ignored)."""
    path = run_dir / "results.jsonl"
    out: dict[int, EpisodeResult] = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                r = EpisodeResult.from_dict(json.loads(line))
            except (json.JSONDecodeError, TypeError):
                continue
            out[r.index] = r
    return out


# ------------------------------------------------------------------------------------------ driver
class _Progress:
    """tqdm bar: episodes done, success so far, ETA (silent when disabled)."""

    def __init__(self, total: int, done: list[EpisodeResult], enabled: bool) -> None:
        from tqdm import tqdm

        self.ok = sum(r.full_success for r in done)
        self.n = len(done)
        self.bar = tqdm(total=total, initial=len(done), unit="ep", disable=not enabled, file=sys.stderr)

    def add(self, r: EpisodeResult) -> None:
        self.n += 1
        self.ok += r.full_success
        self.bar.set_postfix_str(f"success {self.ok}/{self.n} ({100 * self.ok / self.n:.0f}%)")
        self.bar.update(1)


def _submit_all(pool: ProcessPoolExecutor, todo: list[tuple[int, EpisodeSpec]]) -> dict[Future, int]:
    return {pool.submit(_run_episode, i, spec.to_json()): i for i, spec in todo}


def _collect(futures: dict[Future, int], sink: Any) -> None:
    pending = set(futures)
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for f in done:
            sink(EpisodeResult.from_dict(f.result()))


def prepare(cfg: EvalConfig) -> tuple[SkillSources, int]:
    """The skill sources of the run and its episode env's head depth size, each learned checkpoint loaded
    once to check it (a missing or wrong file fails here)."""
    sources = skill_sources(
        cfg.agent, cfg.scripted_skills, cfg.checkpoint_map, _needed(cfg), _checkpoint_dir(cfg)
    )
    learned = _check_learned(sources, _needed(cfg), cfg.chain.arm_speed)
    return sources, episode_depth(cfg.chain.depth, learned)


def evaluate(cfg: EvalConfig) -> tuple[dict[str, Any], Path]:
    """Run (or resume) the evaluation; returns the final JSON record and the run directory."""
    # Fail fast on missing or wrong checkpoints, before a run directory or any process exists. A resumed
    # run with every episode finished runs nothing, so it reads back without the checkpoints it ran with
    # (a table regenerated from the runs kept in docs/, on a machine that never had their run dirs).
    resumed = run_directory(cfg) if cfg.resume else None
    finished = finished_results(resumed) if resumed is not None else {}
    if resumed is not None and finished.keys() >= set(range(cfg.episodes)):
        depth = cfg.chain.depth
    else:
        _, depth = prepare(cfg)
    run_dir = resumed or run_directory(cfg)
    worker_cfg = replace(cfg, chain=replace(cfg.chain, depth=depth))  # the run dir records what was asked
    episodes = _episodes(cfg, run_dir)
    todo = [(i, s) for i, s in enumerate(episodes) if i not in finished]
    procs = cfg.processes or os.cpu_count() or 1
    progress = _Progress(len(episodes), list(finished.values()), cfg.progress)
    fresh: list[EpisodeResult] = []
    t0 = time.perf_counter()

    def sink(r: EpisodeResult) -> None:
        with open(run_dir / "results.jsonl", "a") as f:
            f.write(json.dumps(r.to_dict()) + "\n")
        finished[r.index] = r
        fresh.append(r)
        progress.add(r)

    interrupted = False
    signal.signal(
        signal.SIGINT, signal.default_int_handler
    )  # Ctrl-C stops the run, also when started in the background
    try:
        if procs == 1 or len(todo) <= 1:
            if todo:  # a finished run builds no skills: the checkpoints it ran with may be gone
                _init_worker(worker_cfg, str(run_dir))
            signal.signal(signal.SIGINT, signal.default_int_handler)
            for i, spec in todo:
                sink(EpisodeResult.from_dict(_run_episode(i, spec.to_json())))
        else:
            # forkserver, not fork: the parent has used torch (checking checkpoints), and a forked child
            # of a process whose torch thread pool is running can hang in its first torch op.
            with ProcessPoolExecutor(
                min(procs, len(todo)),
                mp_context=multiprocessing.get_context("forkserver"),
                initializer=_init_worker,
                initargs=(worker_cfg, str(run_dir)),
            ) as pool:
                futures = _submit_all(pool, todo)
                try:
                    _collect(futures, sink)
                except KeyboardInterrupt:
                    interrupted = True
                    pool.shutdown(wait=True, cancel_futures=True)
                    for f, _ in futures.items():
                        if f.done() and not f.cancelled() and f.exception() is None:
                            r = EpisodeResult.from_dict(f.result())
                            if r.index not in {x.index for x in fresh}:
                                sink(r)
    except KeyboardInterrupt:
        interrupted = True
    progress.bar.close()
    wall = time.perf_counter() - t0
    record = _record(cfg, run_dir, [finished[i] for i in sorted(finished)], fresh, wall, procs)
    record["interrupted"] = interrupted
    return record, run_dir


def _record(
    cfg: EvalConfig,
    run_dir: Path,
    results: list[EpisodeResult],
    fresh: list[EpisodeResult],
    wall: float,
    procs: int,
) -> dict[str, Any]:
    s = summarize(results)
    steps = sum(r.steps for r in fresh)
    return {
        "scenario": cfg.scenario,
        "agent": cfg.agent,
        "episodes": s["episodes"],
        "episodes_asked": cfg.episodes,
        "full_success": s["full_success"]["rate"],
        "full_success_ci": [s["full_success"]["lo"], s["full_success"]["hi"]],
        "stage_names": s["stage_names"],
        "stage_success": [x["rate"] for x in s["stage"]],
        "stage_ci": [[x["lo"], x["hi"]] for x in s["stage"]],
        "mean_steps": s["mean_steps"],
        "failures": s["failures"],
        "replanned_episodes": s["replanned_episodes"],
        "rescued_by_replanning": s["rescued_by_replanning"],
        "env_steps_run": steps,
        "env_steps_per_second": steps / wall if wall > 0 and fresh else None,
        "processes": procs,
        "run_dir": str(run_dir),
        "summary": s,
    }


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv and argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0
    single_thread_acting()
    try:
        cfg = parse_overrides(argv)
        record, run_dir = evaluate(cfg)
    except (ConfigError, MissingCheckpointError, SkillCheckpointError, RunDirError, EpisodeSpecError) as e:
        print(f"tpsrl-eval: {e}", file=sys.stderr)
        return 2
    title = f"{cfg.scenario} / {cfg.agent}: {record['episodes']} of {cfg.episodes} episodes ({run_dir})"
    print(summary_table(record["summary"], title))
    if record["interrupted"]:
        print(f"interrupted: finished episodes are kept; continue with: tpsrl-eval resume={run_dir}")
    sps = record["env_steps_per_second"]
    if sps:
        print(f"throughput: {sps:.0f} env steps/s over {record['processes']} process(es)")
    (run_dir / "summary.json").write_text(json.dumps(record, indent=1))
    print(json.dumps({k: v for k, v in record.items() if k != "summary"}))
    return 130 if record["interrupted"] else 0


if __name__ == "__main__":
    sys.exit(main())
