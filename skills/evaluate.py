"""Evaluate a skill policy (learned checkpoint or scripted controller) on its own task, on held-out
layouts by default, with a 95% confidence interval on the success rate.

    python -m skills.evaluate runs/skills/pick/learn2 --episodes 200          # held-out layouts
    python -m skills.evaluate runs/skills/pick/learn2/checkpoints/update_000100.pt --json
    python -m skills.evaluate scripted:pick --episodes 50
    python -m skills.evaluate runs/skills/place/new --against skills/checkpoints/place.pt --episodes 200
    python -m skills.evaluate skills/checkpoints/pick.pt --episodes 200 --seed 1000000,2000000,3000000,4000000

Episodes are drawn from fixed seeds (`EVAL_SEED + k`), so two policies see the same episodes;
`--against B` evaluates B on them too and compares the two episode by episode (exact McNemar test). A learned
policy acts deterministically (its mean action) unless `--sample`; `--noise-scale S` samples with S times
the policy's std. `--seed` takes several seeds: `--episodes` from each, each set reported, the interval
and the paired test over all of them (results.md's "over 800 held-out episodes" are the four sets above).
A place trained with some goal receptacles listed more often than others draws each once here (`drawn_once`).
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import itertools
import json
import math
import time
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import torch

from tpsrl.engine import checkpoint
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.episode import EpisodeSpec

from .config import EPISODE_SOURCE_FIELDS, task_fields
from .learned import load_skill_policy
from .policy import SkillPolicy
from .registry import make_config, make_env
from .scripted import make_scripted
from .starts import bank_skill, load_bank

EVAL_SEED = 1_000_000
BOOLS = {"true": True, "false": False}


class TaskFieldError(ValueError):
    """A task config field given to `evaluate` (`--set`) that the policy's task refuses."""


class StartBankError(ValueError):
    """Episodes given to `evaluate` (`--start-bank`) of another skill than the policy's."""


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a binomial proportion (sound at 0% and 100%, unlike mean +- 2 SE)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class SkillResult:
    """Success, its interval, steps and failure causes over the evaluated episodes."""

    skill: str
    policy: str
    split: str
    episodes: int
    success: float
    ci_low: float
    ci_high: float
    mean_steps: float
    mean_return: float
    failures: dict[str, int] = field(default_factory=dict)
    env_steps_trained: int | None = None
    sampled: bool = False
    """Actions sampled from the policy (seed + k per episode) rather than its mean."""
    noise_scale: float = 1.0
    """Sampled actions' noise, in units of the policy's std."""
    seconds: float = 0.0
    outcomes: list[bool] = field(default_factory=list)
    """Success of each episode, in order (episode k drawn from seed + k)."""
    episode_set: str = ""
    """A digest of the episodes' specs: two results with the same one ran the same episodes."""


def mcnemar(a: list[bool], b: list[bool]) -> tuple[int, int, float]:
    """Two policies' outcomes on the same episodes -> (gained: episodes only `a` succeeded in, lost: only
    `b`, the exact two-sided McNemar p-value: a binomial test of gained against gained + lost at 1/2)."""
    if len(a) != len(b):
        raise ValueError(f"outcomes of {len(a)} and {len(b)} episodes: a paired test needs the same episodes")
    gained = sum(x and not y for x, y in zip(a, b, strict=True))
    lost = sum(y and not x for x, y in zip(a, b, strict=True))
    n = gained + lost
    tail = sum(math.comb(n, i) for i in range(min(gained, lost) + 1)) / 2**n
    return gained, lost, min(1.0, 2 * tail)


def load(policy: str, sample: bool = False, noise_scale: float = 1.0) -> tuple[SkillPolicy, dict[str, Any]]:
    """`scripted:<skill>` or a checkpoint path -> (policy, the task config fields to build its env);
    `sample`: a learned policy samples its actions instead of acting on the mean, with `noise_scale`
    times its std."""
    if policy.startswith("scripted:"):
        return make_scripted(policy.split(":", 1)[1]), {}
    learned = load_skill_policy(policy)
    learned.runner.deterministic = not sample
    learned.runner.noise_scale = noise_scale
    return learned, drawn_once(task_fields(learned.config))


def drawn_once(fields: dict[str, Any]) -> dict[str, Any]:
    """`fields` with a goal list that names a receptacle more than once (`skill.goal_receptacles`: more of
    the training goals there, a curriculum) drawing each once, in the list's order: the task's own draw,
    HAB's, on which policies are compared. `--set goal_receptacles=...` still sets any list."""
    goals = fields.get("goal_receptacles")
    if goals is None or len(set(goals)) == len(goals):
        return fields
    return {**fields, "goal_receptacles": tuple(dict.fromkeys(goals))}


def pooled(parts: list[SkillResult]) -> SkillResult:
    """One policy's results on several episode sets -> one result over all their episodes (outcomes in the
    sets' order, the interval on the pooled count, the episode digest of the sets' digests in order)."""
    if len(parts) == 1:
        return parts[0]
    n = sum(p.episodes for p in parts)
    outcomes = [o for p in parts for o in p.outcomes]
    low, high = wilson_interval(sum(outcomes), n)
    failures: Counter[str] = Counter()
    for p in parts:
        failures.update(p.failures)
    return replace(
        parts[0],
        episodes=n,
        success=sum(outcomes) / n,
        ci_low=low,
        ci_high=high,
        mean_steps=sum(p.mean_steps * p.episodes for p in parts) / n,
        mean_return=sum(p.mean_return * p.episodes for p in parts) / n,
        failures=dict(failures),
        seconds=sum(p.seconds for p in parts),
        outcomes=outcomes,
        episode_set=hashlib.sha1("".join(p.episode_set for p in parts).encode()).hexdigest()[:16],
    )


def seed_list(text: str) -> list[int]:
    """`--seed`: one seed or several, comma-separated (integers >= 0, each listed once)."""
    try:
        seeds = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r}: give integer seeds, comma-separated") from None
    if min(seeds) < 0 or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"{text!r}: seeds must be >= 0 and listed once each")
    return seeds


def overlapping_sets(seeds: list[int], episodes: int) -> tuple[int, int] | None:
    """Two seeds whose sets of `episodes` (seed + k) share episodes, or None."""
    ordered = sorted(seeds)
    for a, b in itertools.pairwise(ordered):
        if b < a + episodes:
            return a, b
    return None


def setting_differences(
    skill: str, a_fields: dict[str, Any], b_fields: dict[str, Any], overrides: dict[str, Any]
) -> dict[str, tuple[Any, Any]]:
    """The task settings (`task_fields`, the task's defaults filled in) in which two policies of `skill`,
    built from their own fields with `overrides` on top, are evaluated differently."""
    a, b = (task_fields(make_config(skill, **{**f, **overrides})) for f in (a_fields, b_fields))
    return {k: (a[k], b[k]) for k in a if a[k] != b[k]}


def failure_causes(stats: dict[str, float]) -> list[str]:
    """The causes an episode ended on, from its `episode_stats` (its `fail/<cause>` entries set)."""
    return [k.split("/", 1)[1] for k, v in stats.items() if k.startswith("fail/") and v > 0.5]


def evaluate(
    policy: str,
    episodes: int,
    split: str = "heldout",
    seed: int = EVAL_SEED,
    sample: bool = False,
    specs: list[EpisodeSpec] | None = None,
    noise_scale: float = 1.0,
    **overrides: Any,
) -> SkillResult:
    """Runs `episodes` episodes of the policy's own skill task on `split` layouts (`sample`: learned
    policies sample their actions, seeded by the episode's seed, with `noise_scale` times their std);
    `specs`: these episodes, in order, instead of the task's own (`episodes` of them at most)."""
    skill_policy, fields = load(policy, sample, noise_scale)
    try:
        env = make_env(skill_policy.skill, **{**fields, **overrides, "split": split})
    except (TypeError, ValueError) as e:
        if not overrides:
            raise
        raise TaskFieldError(f"{sorted(overrides)}: {e}") from None
    if specs is not None:
        episodes = min(episodes, len(specs))
        kinds = {bank_skill(s) for s in specs[:episodes]}
        if kinds != {skill_policy.skill}:
            env.close()
            raise StartBankError(
                f"episodes of {sorted(map(str, kinds))} given to a {skill_policy.skill!r} policy ({policy})"
            )
    outcomes, steps, returns, causes, digest = [], [], [], Counter(), hashlib.sha1()
    t0 = time.perf_counter()
    for k in range(episodes):
        given = None if specs is None else {"episode": specs[k]}
        obs, _ = env.reset(seed=seed + k, options=given)
        digest.update(json.dumps(env.backend.spec.to_dict(), sort_keys=True).encode())
        skill_policy.reset(env)
        if sample:
            torch.manual_seed(seed + k)
        total, n, done = 0.0, 0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(skill_policy.act(obs, env))
            total, n, done = total + float(reward), n + 1, terminated or truncated
        stats = info["episode_stats"]
        outcomes.append(stats.get("success", 0.0) > 0.5)
        causes.update(failure_causes(stats))
        steps.append(n)
        returns.append(total)
    env.close()
    wins = sum(outcomes)
    low, high = wilson_interval(wins, episodes)
    return SkillResult(
        skill=skill_policy.skill,
        policy=policy,
        split=split,
        episodes=episodes,
        success=wins / max(1, episodes),
        ci_low=low,
        ci_high=high,
        mean_steps=float(np.mean(steps)),
        mean_return=float(np.mean(returns)),
        failures=dict(causes),
        env_steps_trained=getattr(skill_policy, "env_steps_trained", None),
        seconds=time.perf_counter() - t0,
        sampled=sample,
        noise_scale=noise_scale,
        outcomes=outcomes,
        episode_set=digest.hexdigest()[:16],
    )


def field_value(text: str) -> Any:
    """A `--set` value: true / false (any case, as Hydra writes them), else a Python literal, else the
    text itself."""
    if text.lower() in BOOLS:
        return BOOLS[text.lower()]
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def task_overrides(items: list[str]) -> dict[str, Any]:
    """`--set FIELD=VALUE` items -> task config fields (values as `field_value` reads them); a ValueError
    names an item that is not FIELD=VALUE or sets an episode source (`EPISODE_SOURCE_FIELDS`)."""
    out = {}
    for item in items:
        field, eq, value = item.partition("=")
        if not eq or not field or field in EPISODE_SOURCE_FIELDS:
            raise ValueError(
                f"{item!r} is not FIELD=VALUE of a task config field (not {EPISODE_SOURCE_FIELDS})"
            )
        out[field] = field_value(value)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.evaluate", description=__doc__.split("\n\n")[0])
    parser.add_argument("policy", help="a run directory, a checkpoint file, or scripted:<skill>")
    parser.add_argument("--episodes", type=int, default=100, help="episodes (default 100)")
    parser.add_argument("--split", default="heldout", help="heldout (default) | train")
    parser.add_argument(
        "--seed",
        type=seed_list,
        default=[EVAL_SEED],
        help=f"seed of the first episode (default {EVAL_SEED}); several, comma-separated: --episodes from "
        "each, pooled",
    )
    parser.add_argument("--sample", action="store_true", help="sample learned actions (default: the mean)")
    parser.add_argument(
        "--noise-scale",
        type=float,
        default=1.0,
        metavar="S",
        help="with --sample: the sampled noise at S times the policy's std (default 1, as trained)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    parser.add_argument(
        "--start-bank",
        help="a pick or place start bank (python -m evaluation.starts, python -m skills.starts) of the "
        "split: its episodes in order",
    )
    parser.add_argument(
        "--against",
        metavar="POLICY",
        help="a second policy of the same skill, evaluated on the same episodes: prints both and the "
        "episodes each alone succeeded in, with the exact McNemar p-value",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a task config field for this evaluation (e.g. settle_speed=0.05), repeatable; "
        "episode sources (start_bank) cannot be set",
    )
    args = parser.parse_args(argv)
    single_thread_acting()
    try:
        overrides = task_overrides(args.set)
    except ValueError as e:
        parser.error(f"--set: {e}")
    if not (math.isfinite(args.noise_scale) and args.noise_scale > 0):
        parser.error(f"--noise-scale: {args.noise_scale} must be a finite number > 0")
    if args.noise_scale != 1.0 and not args.sample:
        parser.error(f"--noise-scale: {args.noise_scale} scales sampled actions; give --sample too")
    if args.episodes < 1:
        parser.error(f"--episodes: {args.episodes} must be >= 1")
    if (shared := overlapping_sets(args.seed, args.episodes)) is not None:
        parser.error(
            f"--seed: the sets from {shared[0]} and {shared[1]} share episodes ({args.episodes} each)"
        )
    if len(args.seed) > 1 and args.start_bank is not None:
        parser.error("--seed: a start bank's episodes are its own, in order; give one seed with --start-bank")
    try:
        specs = None if args.start_bank is None else load_bank(args.start_bank, args.split)
    except ValueError as e:
        parser.error(f"--start-bank: {e}")
    policies = (args.policy,) if args.against is None else (args.policy, args.against)
    if args.against is not None:
        (a_policy, a_fields), (b_policy, b_fields) = load(args.policy), load(args.against)
        if a_policy.skill != b_policy.skill:
            parser.error(
                f"--against: {args.against} is a {b_policy.skill} policy, {args.policy} a {a_policy.skill}"
            )
    sets: list[list[SkillResult]] = []
    for policy in policies:
        try:
            sets.append(
                [
                    evaluate(
                        policy,
                        args.episodes,
                        args.split,
                        seed,
                        sample=args.sample,
                        specs=specs,
                        noise_scale=args.noise_scale,
                        **overrides,
                    )
                    for seed in args.seed
                ]
            )
        except TaskFieldError as e:
            parser.error(f"--set {e}")
        except StartBankError as e:
            parser.error(f"--start-bank: {e}")
    results = [pooled(parts) for parts in sets]
    differ = (
        {} if args.against is None else setting_differences(a_policy.skill, a_fields, b_fields, overrides)
    )
    if args.against is not None and results[0].episode_set != results[1].episode_set:
        parser.error(
            f"--against: {args.policy} and {args.against} drew different episodes from their own task "
            f"settings (differing: {differ}); give both the same with --set FIELD=VALUE"
        )
    where = "" if args.start_bank is None else f" from the starts of {args.start_bank}"
    where += "".join(f", {k}={v}" for k, v in overrides.items())
    if args.sample:
        where += ", sampled" + (f" at {args.noise_scale:g} x the std" if args.noise_scale != 1.0 else "")
    if len(args.seed) > 1:
        where += f", {len(args.seed)} sets of {args.episodes} from seeds {','.join(map(str, args.seed))}"
    for r, parts in zip(results, sets, strict=True):
        if len(parts) > 1:
            each = ", ".join(f"{seed}: {p.success:.1%}" for seed, p in zip(args.seed, parts, strict=True))
            print(f"{r.policy} on each set: {each}")
        print(
            f"{r.skill} ({r.policy}) on {r.split} layouts{where}: success {r.success:.1%} "
            f"[95% CI {r.ci_low:.1%}, {r.ci_high:.1%}] over {r.episodes} episodes; mean steps {r.mean_steps:.0f}, "
            f"return {r.mean_return:.2f}; failures {r.failures}; trained {r.env_steps_trained} steps"
        )
    out = asdict(results[0])
    if len(args.seed) > 1:
        out["sets"] = [
            {"seed": seed, "success": p.success} for seed, p in zip(args.seed, sets[0], strict=True)
        ]
    if args.against is not None:
        a, b = results
        gained, lost, p = mcnemar(a.outcomes, b.outcomes)
        print(
            f"paired over the same {a.episodes} episodes: {a.policy} alone succeeded in {gained}, "
            f"{b.policy} alone in {lost}; exact McNemar p = {p:.3f}"
        )
        if differ:  # the same episodes, each policy under its own task's rules and sensors
            print(
                f"each under its own task settings, which differ: "
                f"{ {k: list(v) for k, v in differ.items()} } (A, B); --set FIELD=VALUE compares them under one"
            )
        out.update(against=asdict(b), gained=gained, lost=lost, mcnemar_p=p, settings_differ=differ)
    if args.json:
        out["code"] = checkpoint.code_version()  # commit and package versions: what a rerun must match
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
