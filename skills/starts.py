"""Start banks: place episodes that begin where the learned nav stopped.

Inside a HAB chain, place starts where nav left the robot. The learned nav stops as soon as HAB's rule
holds (within 1.5 m of the goal in a straight line, facing it), often across a table or counter from the
goal, where place, trained from HAB's own place spawns, mostly timed out (docs/results.md, tenth
session). A start bank records those stops: the shipped nav runs on nav episodes that start holding the
object (so its goal is the object's goal), and every episode it ends successfully becomes a place
episode with the robot where nav stopped and the objects where they lie then. `PlaceConfig.start_bank`
draws place's training episodes from such a file with probability `start_bank_prob`.

    python -m skills.starts --nav skills/checkpoints/nav_to_obj.pt --split train --episodes 3000 \
        --out docs/results/starts/place_nav_train.json

A bank may also hold a skill's own task episodes drawn with other task fields, to weight a part of its
distribution in training (pick from the open fridge, where the shipped pick failed most):

    python -m skills.starts --task pick --set "receptacles=('fridge',)" --split train --episodes 1000 \
        --out docs/results/starts/pick_fridge_train.json

A bank may keep only the task episodes a policy fails (acting on its mean, as evaluated): training then
returns to the starts where the policy is weakest, as prioritized level replay does (Jiang et al., 2021),
with the rest of its episodes still drawn from the task:

    python -m skills.starts --task pick --set near_furniture_prob=0.5 --set spawn_clearance=0.32 \
        --split train --episodes 2400 --failures-of skills/checkpoints/pick.pt --out runs/pick_failed.json

A bank only holds layouts of the split it was recorded on, and the place task refuses a bank with a
layout outside its own split, so held-out layouts are never trained on.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.backend import SimBackend
from tpsrl.sim.episode import (
    EpisodeSpec,
    EpisodeSpecError,
    ObjectPlacement,
    PlacementError,
    RobotStart,
    load_episodes,
    save_episodes,
)
from tpsrl.sim.task import EpisodeSource

from .episodes import arm_start
from .spawn import SpawnError, articulation_disks, reachable_from_free
from .splits import split_layouts

LIFT = 0.01
"""Recorded objects are re-created this much (m) higher than they lay: a resting object presses about
2 cm into its support, past the 1.5 cm overlap a reset accepts; they settle back within a few steps."""
_OBJECT_INSIDE = re.compile(r": objects\[(\d+)\] '[^']*' starts inside (?!the robot).*?\(([0-9.]+) m deep")
"""An object-inside-furniture `PlacementError` (tpsrl/sim/mujoco/overlap.py): its index and depth."""
_PAST_RANGE = re.compile(
    r"\.(articulations\.(\w+)|robot\.arm\[(\d+)\]): (\S+) outside (?:the joint range )?\[(\S+), (\S+)\]"
)
"""An `EpisodeSpecError` of a door, drawer or arm joint past its range (tpsrl/sim/episode.py)."""
PAST_RANGE_TOL = 0.01
"""A joint found this far (m or rad) past its range is re-created at its limit: MuJoCo's soft limits let
a fully open drawer or fridge rest up to ~1e-5 past it (a fifth of the chains' pick calls in Set Table
and Prepare Groceries, objects in the open fridge or drawer, were lost before)."""
RECORD_SEED = 2_000_000
"""Seed of the first nav episode a bank is recorded from (train and held-out banks use other layouts)."""


def live_objects(backend: SimBackend, spec: EpisodeSpec) -> tuple[ObjectPlacement, ...]:
    """`spec`'s objects where they lie now, raised by LIFT; the held one keeps its place in `spec` (a reset
    snaps it into the gripper, but first checks that place is free: where it hangs now it may be inside
    the furniture the arm reaches over)."""
    return tuple(
        o
        if o.handle == backend.held
        else replace(o, pos=tuple(float(v) for v in backend.object_pos(o.handle) + (0.0, 0.0, LIFT)))
        for o in spec.objects
    )


def recreated(backend: SimBackend, spec: EpisodeSpec, tries: int = 6) -> EpisodeSpec | None:
    """`spec` as `backend` accepts it at reset, or None. An object found inside its support (one lying on
    its side is re-created upright: the spec holds only its yaw) is raised out of it, and a joint found
    just past its range is set to its limit, and it is tried again."""
    for _ in range(tries):
        try:
            backend.reset(spec)
            return spec
        except PlacementError as e:
            m = _OBJECT_INSIDE.search(str(e))
            if m is None:
                return None
            i, depth = int(m.group(1)), float(m.group(2))
            o = spec.objects[i]
            raised = replace(o, pos=(o.pos[0], o.pos[1], o.pos[2] + depth + 0.005))
            spec = replace(spec, objects=spec.objects[:i] + (raised,) + spec.objects[i + 1 :])
        except EpisodeSpecError as e:
            clamped = _within_range(spec, str(e))
            if clamped is None:  # a door pushed far past its range, a state MuJoCo rejects
                return None
            spec = clamped
    return None


def _within_range(spec: EpisodeSpec, error: str) -> EpisodeSpec | None:
    """`spec` with the joint that `error` finds past its range set to its limit, if it is at most
    PAST_RANGE_TOL past it; else None."""
    m = _PAST_RANGE.search(error)
    if m is None:
        return None
    value, lo, hi = (float(v) for v in m.group(4, 5, 6))
    limit = min(max(value, lo), hi)
    if abs(value - limit) > PAST_RANGE_TOL:
        return None
    if m.group(2) is not None:
        arts = tuple((n, limit if n == m.group(2) else v) for n, v in spec.articulations)
        return replace(spec, articulations=arts)
    i, arm = int(m.group(3)), spec.robot.arm
    assert arm is not None
    return replace(spec, robot=replace(spec.robot, arm=arm[:i] + (limit,) + arm[i + 1 :]))


def stop_episode(backend: SimBackend, spec: EpisodeSpec, index: int) -> EpisodeSpec:
    """The place episode that starts from the backend's state at the end of nav episode `spec` (holding
    its target): robot where it stands, objects where they lie, doors and drawers as they are (nav may
    have pushed them), the same target and goal."""
    x, y, yaw = backend.base_pose
    return replace(
        spec,
        robot=RobotStart(float(x), float(y), float(yaw)),
        objects=live_objects(backend, spec),
        articulations=tuple((n, float(backend.articulation(n))) for n, _ in spec.articulations),
        nav_goal=None,
        episode_id=f"navstop-L{spec.layout}-{index}",
    )


def record_nav_stops(
    nav: str, split: str, episodes: int, seed: int = RECORD_SEED, sample_frac: float = 0.25
) -> tuple[list[EpisodeSpec], dict[str, float]]:
    """Runs the nav policy `nav` on `episodes` nav episodes of `split` that start holding the target, and
    returns the place episodes of those it ended successfully with a reachable goal that a place env
    re-creates (no body inside another: nav may have pressed into a door), and counts. A
    fraction `sample_frac` of the episodes samples nav's actions (a chain retry does), the rest act on
    its mean (a chain's first call does)."""
    from .evaluate import load
    from .registry import make_env

    policy, fields = load(nav)
    if policy.skill != "nav_to_obj":
        raise ValueError(f"--nav: {nav} is a {policy.skill!r} policy; a start bank needs a nav_to_obj policy")
    env = make_env("nav_to_obj", **{**fields, "split": split, "hold_prob": 1.0})
    check = make_env("place", split=split)
    out: list[EpisodeSpec] = []
    counts = {"episodes": 0, "nav_success": 0, "unreachable_goal": 0, "not_recreated": 0, "kept": 0}
    rng = np.random.default_rng(seed)
    for k in range(episodes):
        sampled = bool(rng.random() < sample_frac)
        policy.runner.deterministic = not sampled
        torch.manual_seed(seed + k)
        obs, _ = env.reset(seed=seed + k)
        policy.reset(env)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(policy.act(obs, env))
            done = terminated or truncated
        counts["episodes"] += 1
        if info["episode_stats"].get("success", 0.0) < 0.5:
            continue
        counts["nav_success"] += 1
        spec = env.backend.spec
        if spec.held is None or env.backend.held != spec.held:
            continue
        goal = np.array(spec.targets[0].goal)
        if not reachable_from_free(
            spec.layout, goal, articulation_disks(spec.layout, spec.articulation_dict)
        ):
            counts["unreachable_goal"] += 1
            continue
        stop = recreated(check.backend, stop_episode(env.backend, spec, k))
        if stop is None:
            counts["not_recreated"] += 1
            continue
        out.append(stop)
    env.close()
    check.close()
    counts["kept"] = len(out)
    return out, counts


ALONG_SETTLE_FORCE = 100.0
"""N: a state recorded along an episode is kept only if one idle step after its re-creation the robot's
contact force stays under this (a held object snapped back into a gripper that reaches into furniture
may start inside it)."""


def mid_episode(backend: SimBackend, spec: EpisodeSpec, index: int, step: int) -> EpisodeSpec:
    """The episode that starts from the backend's state at `step` of episode `spec`: robot and arm where
    they are, objects where they lie, doors and drawers as they are, the same held object, target and goal."""
    x, y, yaw = backend.base_pose
    return replace(
        spec,
        robot=RobotStart(float(x), float(y), float(yaw), arm=tuple(float(q) for q in backend.arm_qpos)),
        objects=live_objects(backend, spec),
        articulations=tuple((n, float(backend.articulation(n))) for n, _ in spec.articulations),
        episode_id=f"along-{spec.episode_id}-{index}-{step}",
    )


def states_along(
    policy: str, specs: list[EpisodeSpec], split: str, per_episode: int, seed: int = RECORD_SEED
) -> tuple[list[EpisodeSpec], dict[str, int]]:
    """Starts mid-way along `policy`'s successful episodes of `specs` (a reverse curriculum from
    demonstrations: Salimans and Chen, 2018): for each episode it succeeds, `per_episode` of its steps
    drawn uniformly (without the first), while it still holds what the episode started holding, each
    re-created and kept if it starts calm (ALONG_SETTLE_FORCE). The policy acts on its mean."""
    from .evaluate import load
    from .registry import make_env

    actor, fields = load(policy)
    skill = bank_skill(specs[0])
    if actor.skill != skill:
        raise ValueError(
            f"--along: {policy} is a {actor.skill!r} policy; the episodes are {skill!r} episodes"
        )
    env = make_env(skill, **{**fields, "split": split})
    check = make_env(skill, split=split)
    rng = np.random.default_rng(seed)
    out: list[EpisodeSpec] = []
    counts = {"episodes": 0, "success": 0, "candidates": 0, "not_recreated": 0, "not_calm": 0, "kept": 0}
    for k, spec in enumerate(specs):
        obs, _ = env.reset(seed=seed + k, options={"episode": spec})
        actor.reset(env)
        states, step, done = [], 0, False
        while not done:
            obs, _, terminated, truncated, info = env.step(actor.act(obs, env))
            step, done = step + 1, terminated or truncated
            if not done and env.backend.held == spec.held:
                states.append(mid_episode(env.backend, env.backend.spec, k, step))
        counts["episodes"] += 1
        if info["episode_stats"].get("success", 0.0) < 0.5 or not states:
            continue
        counts["success"] += 1
        for i in sorted(rng.choice(len(states), size=min(per_episode, len(states)), replace=False)):
            counts["candidates"] += 1
            state = recreated(check.backend, states[i])
            if state is None:
                counts["not_recreated"] += 1
                continue
            check.backend.step(None, None, None)
            if (
                check.backend.unstable
                or check.backend.force_instant > ALONG_SETTLE_FORCE
                or check.backend.held != state.held
            ):
                counts["not_calm"] += 1
                continue
            out.append(state)
    env.close()
    check.close()
    counts["kept"] = len(out)
    return out, counts


BANK_SKILLS = ("pick", "place", "nav_to_obj")
"""The skills a start bank can hold episodes of."""


def task_episodes(
    skill: str, split: str, episodes: int, seed: int = RECORD_SEED, **fields: Any
) -> list[EpisodeSpec]:
    """`episodes` episodes of `skill`'s own task on `split` layouts, drawn with these task config `fields`
    from seeds `seed + k` (as its env draws them for training or evaluation)."""
    from .registry import make_env  # the skills' tasks import this module

    env = make_env(skill, **{**fields, "split": split})
    try:
        out = []
        for k in range(episodes):
            env.reset(seed=seed + k)
            out.append(replace(env.backend.spec, episode_id=f"{skill}-{split}-{seed + k}"))
        return out
    finally:
        env.close()


def failed_episodes(
    policy: str, specs: list[EpisodeSpec], split: str
) -> tuple[list[EpisodeSpec], dict[str, Any]]:
    """The episodes of `specs` (of `split`) that `policy` fails acting on its mean, in order, and counts
    (episodes, failed, the failures' causes)."""
    from .evaluate import evaluate  # it imports this module

    result = evaluate(policy, len(specs), split, specs=specs)
    kept = [s for s, ok in zip(specs, result.outcomes, strict=True) if not ok]
    return kept, {"episodes": len(specs), "failed": len(kept), "causes": result.failures}


def bank_skill(spec: EpisodeSpec) -> str | None:
    """The skill whose episode `spec` is: nav_to_obj (it has a nav goal), place (it starts holding its
    target), pick (holding nothing), None (neither: no target, or another object held)."""
    if spec.nav_goal is not None:
        return "nav_to_obj"
    if not spec.targets:
        return None
    if spec.held == spec.targets[0].handle:
        return "place"
    return "pick" if spec.held is None else None


def load_bank(paths: str, split: str, skill: str | None = None) -> list[EpisodeSpec]:
    """The episodes of the start bank `paths` (one file, or several separated by commas), checked to hold
    only layouts of `split` and episodes of one skill: `skill` (one of BANK_SKILLS), or, if None, whichever the
    first episode is; errors name `skill.start_bank`."""
    if skill is not None and skill not in BANK_SKILLS:
        raise ValueError(f"skill.start_bank: a bank holds episodes of {BANK_SKILLS}, not {skill!r}")
    allowed = set(split_layouts(split))
    bank: list[EpisodeSpec] = []
    for path in (p.strip() for p in paths.split(",") if p.strip()):
        try:
            episodes = load_episodes(path)
        except EpisodeSpecError as e:
            raise ValueError(f"skill.start_bank: {e}") from None
        outside = sorted({s.layout for s in episodes} - allowed)
        if outside:
            raise ValueError(
                f"skill.start_bank: {path} holds layouts {outside} outside the {split!r} split "
                f"({sorted(allowed)}); record a bank on that split (--split {split})"
            )
        bank += episodes
    if not bank:
        raise ValueError(f"skill.start_bank: {paths!r} names no file")
    want = skill or bank_skill(bank[0])
    for i, s in enumerate(bank):
        kind = bank_skill(s)
        if kind != want:
            what = {
                "nav_to_obj": "has a nav goal",
                "place": "starts holding its target",
                "pick": "starts holding nothing",
                None: "has no target or holds another object",
            }[kind]
            raise ValueError(f"skill.start_bank: episode {i} ({s.episode_id}) {what}: not a {want} episode")
    return bank


class BankEpisodes:
    """Episode source: an episode of the bank with probability `prob`, else one of `source`; a bank
    episode's arm starts off rest by `arm_noise` (`skill.arm_start_noise`, `skills.episodes.arm_start`)."""

    def __init__(
        self, source: EpisodeSource, bank: Sequence[EpisodeSpec], prob: float, arm_noise: float = 0.0
    ) -> None:
        self.source, self.bank, self.prob, self.arm_noise = source, list(bank), prob, arm_noise

    def sample(self, backend: SimBackend, rng: np.random.Generator) -> EpisodeSpec:
        if self.bank and rng.random() < self.prob:
            spec = self.bank[int(rng.integers(len(self.bank)))]
            arm = arm_start(rng, self.arm_noise)
            return spec if arm is None else replace(spec, robot=replace(spec.robot, arm=arm))
        return self.source.sample(backend, rng)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m skills.starts", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--nav", default="skills/checkpoints/nav_to_obj.pt", help="nav policy (run dir or checkpoint)"
    )
    parser.add_argument("--split", default="train", help="train (default) | heldout")
    parser.add_argument("--episodes", type=int, default=3000, help="nav episodes to run (default 3000)")
    parser.add_argument("--seed", type=int, default=RECORD_SEED, help="seed of the first nav episode")
    parser.add_argument(
        "--sample-frac", type=float, default=0.25, help="share of episodes with sampled actions"
    )
    parser.add_argument(
        "--task",
        choices=BANK_SKILLS,
        help="record this skill's own task episodes (with --set fields) instead of nav stops",
    )
    parser.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="FIELD=VALUE",
        help="a task config field for --task (e.g. \"receptacles=('fridge',)\"), repeatable",
    )
    parser.add_argument(
        "--failures-of",
        metavar="POLICY",
        help="with --task: keep only the episodes this policy (of that skill) fails, acting on its mean",
    )
    parser.add_argument(
        "--along",
        metavar="POLICY",
        help="with --task: keep states mid-way along the episodes this policy (of that skill, e.g. "
        "scripted:place) succeeds, --per-episode of each",
    )
    parser.add_argument(
        "--per-episode",
        type=int,
        default=2,
        help="with --along: states kept per successful episode (default 2)",
    )
    parser.add_argument("--out", required=True, help="episodes file to write (never overwritten)")
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error(f"--episodes: {args.episodes} must be >= 1")
    if not 0.0 <= args.sample_frac <= 1.0:
        parser.error(f"--sample-frac: {args.sample_frac} must be in [0, 1]")
    if Path(args.out).exists():
        parser.error(f"--out: {args.out} exists; a start bank is never overwritten (choose another path)")
    split_layouts(args.split)
    if args.set and args.task is None:
        parser.error("--set: task fields need --task")
    if args.per_episode < 1:
        parser.error(f"--per-episode: {args.per_episode} must be >= 1")
    if args.along is not None and (args.task is None or args.failures_of is not None):
        parser.error(
            f"--along: {args.along} runs on a skill's own task episodes; give --task, not --failures-of"
        )
    if args.failures_of is not None and args.task is None:
        parser.error(f"--failures-of: {args.failures_of} is run on a skill's own task episodes; give --task")
    single_thread_acting()
    t0 = time.perf_counter()
    if args.task is not None:
        return _record_task(parser, args, t0)
    try:
        bank, counts = record_nav_stops(args.nav, args.split, args.episodes, args.seed, args.sample_frac)
    except (ValueError, SpawnError) as e:
        parser.error(str(e))
    if not bank:
        parser.error(f"no nav episode of {args.episodes} ended successfully; nothing written")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    save_episodes(args.out, bank)
    counts["seconds"] = round(time.perf_counter() - t0, 1)
    print(
        f"{counts['kept']} place starts from {counts['episodes']} nav episodes "
        f"({counts['nav_success']} successful, {counts['unreachable_goal']} with a goal out of reach, "
        f"{counts['not_recreated']} not re-created) "
        f"-> {args.out} in {counts['seconds']} s"
    )
    print(json.dumps({"out": args.out, "split": args.split, "nav": args.nav, **counts}))
    return 0


def _record_task(parser: argparse.ArgumentParser, args: argparse.Namespace, t0: float) -> int:
    from .evaluate import load, task_overrides  # it imports this module

    if args.failures_of is not None:  # checked before the episodes are drawn
        try:
            skill = load(args.failures_of)[0].skill
        except ValueError as e:
            parser.error(f"--failures-of: {e}")
        if skill != args.task:
            parser.error(f"--failures-of: {args.failures_of} is a {skill!r} policy, not a {args.task!r} one")
    try:
        fields = task_overrides(args.set)
    except ValueError as e:
        parser.error(f"--set: {e}")
    try:
        bank = task_episodes(args.task, args.split, args.episodes, args.seed, **fields)
    except (TypeError, ValueError, SpawnError) as e:
        parser.error(f"--task {args.task} --set {fields}: {e}")
    what = f"{args.task} episodes ({fields})"
    extra: dict[str, Any] = {}
    if args.failures_of is not None:
        bank, extra = failed_episodes(args.failures_of, bank, args.split)
        if not bank:
            parser.error(
                f"--failures-of: {args.failures_of} failed none of {args.episodes} episodes; nothing written"
            )
        what += f" that {args.failures_of} fails ({extra['causes']})"
    if args.along is not None:
        try:
            bank, extra = states_along(args.along, bank, args.split, args.per_episode, args.seed)
        except ValueError as e:
            parser.error(str(e))
        if not bank:
            parser.error(f"--along: no state kept along {args.along}'s episodes ({extra}); nothing written")
        what = f"states along {args.along}'s successful {what} ({extra})"
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    save_episodes(args.out, bank)
    seconds = round(time.perf_counter() - t0, 1)
    count = f"{len(bank)}" if args.along is not None else f"{len(bank)} of {args.episodes}"
    print(f"{count} {what} on {args.split} layouts -> {args.out} in {seconds} s")
    print(
        json.dumps(
            {
                "out": args.out,
                "split": args.split,
                "task": args.task,
                "fields": args.set,
                "failures_of": args.failures_of,
                "along": args.along,
                **extra,
                "kept": len(bank),
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
