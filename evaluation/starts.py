"""Record where pick, place or nav starts inside HAB chains, on training layouts, as a start bank.

Pick and place are trained from HAB's own spawns; inside a chain they start wherever the learned nav (or
a failed earlier call) left the robot, and nav starts where pick or place left it, beside the furniture
with objects just set down. This runs the `tp_srl` agent on HAB episodes drawn on the *training* layouts
and writes, for every call of the skill, the episode its own task would have set up
at that moment (robot pose and arm, objects where they lie, doors and drawers as they are; place: the
object held, pick: nothing held, nav: its goal and whatever it holds): a file `skill.start_bank` trains
the skill from (`skills/starts.py`). Held-out layouts are never recorded.

    python -m evaluation.starts --scenarios tidy_house,prepare_groceries,set_table --episodes 60 \
        --out docs/results/starts/place_chain_train.json
    python -m evaluation.starts --skill pick --episodes 60 --out docs/results/starts/pick_chain_train.json
    python -m evaluation.starts --skill nav_to_obj --episodes 30 --out docs/results/starts/nav_chain_train.json
    python -m evaluation.starts --skill nav_to_obj --episodes 30 --ee-within 0.2 \
        --out docs/results/starts/nav_chain_near_train.json

`--first-only` keeps each episode's first call of the skill and ends the episode there: with `--agent
tp_srl_nonav --skill pick` these are the first picks NoNav's single attempt is measured on (from the
episode's start in Tidy House and Prepare Groceries), without the retries and later calls of a chain.

    python -m evaluation.starts --agent tp_srl_nonav --skill pick --first-only --episodes 300 \
        --out docs/results/starts/pick_nonav_first_train.json
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from evaluation.agent import HierarchicalAgent, make_episode_env
from evaluation.config import EvalConfig
from evaluation.episodes import generate_episodes, scenario_names
from evaluation.grounding import GroundedCall
from evaluation.run import prepare
from skills.registry import make_env
from skills.starts import BANK_SKILLS, live_objects, recreated
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.backend import SimBackend
from tpsrl.sim.env import RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec, RobotStart, save_episodes

RECORD_SEED = 3_000_000
"""Seed of the recorded HAB episode sets (other than any evaluation's)."""


class FirstCallRecorded(Exception):
    """Raised by a `CallStarts` that keeps first calls only, once it has seen its episode's first call:
    `record_call_starts` ends the episode there."""


class CallStarts:
    """A `HierarchicalAgent.call_hook` that keeps every call of `skill` (pick, place or nav_to_obj) as an
    episode of that skill's own task (`first_only`: the episode's first such call, then ends it by
    raising `FirstCallRecorded`)."""

    def __init__(self, skill: str, split: str, ee_within: float = 0.0, first_only: bool = False) -> None:
        if skill not in BANK_SKILLS:
            raise ValueError(f"--skill: {skill!r} not accepted; a start bank holds {BANK_SKILLS} episodes")
        self.skill, self.ee_within, self.first_only = skill, ee_within, first_only
        self.starts: list[EpisodeSpec] = []
        self.tag = ""
        self.counts = {"calls": 0, "not_recreated": 0}
        if ee_within:
            self.counts["ee_clear"] = 0
        if skill != "nav_to_obj":  # nav is called holding its target (to the goal) or nothing
            self.counts["not_holding_target" if skill == "place" else "holding"] = 0
        self._check = make_env(skill, split=split)

    def __call__(
        self, env: RearrangeEnv, episode: EpisodeSpec, call: GroundedCall, spec: EpisodeSpec
    ) -> None:
        if call.skill != self.skill:
            return
        self.counts["calls"] += 1
        self._record(env, episode, call, spec)
        if self.first_only:  # kept or not, a later call is not the episode's first
            raise FirstCallRecorded

    def _record(self, env: RearrangeEnv, episode: EpisodeSpec, call: GroundedCall, spec: EpisodeSpec) -> None:
        b = env.backend
        # the chain calls place only holding its target and pick holding nothing; a bank needs that too
        if self.skill == "place" and b.held != call.target:
            self.counts["not_holding_target"] += 1
            return
        if self.skill == "pick" and b.held is not None:
            self.counts["holding"] += 1
            return
        x, y, yaw = b.base_pose
        if self.skill == "nav_to_obj":
            # its own task has one target: the object held (a nav to its goal or to a receptacle), else the
            # call's object (or the episode's first); a nav to an object has its goal where the object lies
            # (the chain's nav reads it live)
            held = [t for t in spec.targets if t.handle == b.held]
            spec = replace(spec, targets=tuple(held) or spec.targets[:1])
            goal = spec.nav_goal or tuple(float(v) for v in b.object_pos(spec.targets[0].handle)[:2])
            spec = replace(spec, nav_goal=goal)
        start = replace(
            spec,
            robot=RobotStart(float(x), float(y), float(yaw), tuple(float(q) for q in b.arm_qpos)),
            objects=live_objects(b, episode),
            episode_id=f"chain-{self.tag}-{self.counts['calls']}",
        )
        start = recreated(self._check.backend, start)
        if start is None:
            self.counts["not_recreated"] += 1
            return
        if self.ee_within and ee_clearance(self._check.backend, start) >= self.ee_within:
            self.counts["ee_clear"] += 1
            return
        self.starts.append(start)


def ee_clearance(backend: SimBackend, spec: EpisodeSpec) -> float:
    """The distance (m) from the end effector to the nearest object not held, as `backend` (reset to
    `spec`) has them; inf without one."""
    ee = backend.ee_pos_world
    return min(
        (
            float(np.linalg.norm(backend.object_pos(o.handle) - ee))
            for o in spec.objects
            if o.handle != backend.held
        ),
        default=math.inf,
    )


def record_call_starts(
    scenarios: list[str],
    episodes: int,
    split: str = "train",
    seed: int = RECORD_SEED,
    agent: str = "tp_srl",
    skill: str = "place",
    ee_within: float = 0.0,
    first_only: bool = False,
) -> tuple[list[EpisodeSpec], dict[str, int]]:
    """Runs `agent` (shipped skills) on `episodes` HAB episodes of each scenario on `split` layouts and
    returns the starts of its chains' `skill` calls (those with an object within `ee_within` m of the
    end effector, if > 0; `first_only`: each episode's first call only), and counts."""
    recorder = CallStarts(skill, split, ee_within, first_only)
    for scenario in scenarios:
        sources, depth = prepare(EvalConfig(scenario=scenario, agent=agent))
        chain = HierarchicalAgent(agent, sources)
        chain.call_hook = recorder
        env = make_episode_env(depth)
        for i, spec in enumerate(generate_episodes(scenario, episodes, seed, split=split)):
            recorder.tag = f"{scenario}-{i}"
            with contextlib.suppress(FirstCallRecorded):  # first_only: the episode ends at its first call
                chain.run(env, spec, scenario, i)
        env.close()
    return recorder.starts, {**recorder.counts, "kept": len(recorder.starts)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.starts", description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--scenarios", default=",".join(scenario_names()), help="comma-separated (default: all)"
    )
    parser.add_argument("--episodes", type=int, default=60, help="HAB episodes per scenario (default 60)")
    parser.add_argument("--split", default="train", help="train (default) | heldout (for evaluation banks)")
    parser.add_argument("--seed", type=int, default=RECORD_SEED, help="seed of the HAB episode sets")
    parser.add_argument(
        "--agent", default="tp_srl", help="the agent whose chains are recorded (default tp_srl)"
    )
    parser.add_argument(
        "--skill", default="place", help="pick | place (default) | nav_to_obj: the calls recorded"
    )
    parser.add_argument(
        "--ee-within",
        type=float,
        default=0.0,
        help="keep only starts with an object (not held) within this distance (m) of the end effector "
        "(default 0: every start)",
    )
    parser.add_argument(
        "--first-only",
        action="store_true",
        help="keep each episode's first call of the skill and end the episode there",
    )
    parser.add_argument("--out", required=True, help="episodes file to write (never overwritten)")
    args = parser.parse_args(argv)
    if not args.ee_within >= 0:
        parser.error(f"--ee-within: {args.ee_within} must be >= 0 (m; 0 keeps every start)")
    scenarios = [s.strip() for s in args.scenarios.split(",") if s.strip()]
    unknown = sorted(set(scenarios) - set(scenario_names()))
    if unknown or not scenarios:
        parser.error(f"--scenarios: unknown {unknown or scenarios}; accepted: {scenario_names()}")
    if args.episodes < 1:
        parser.error(f"--episodes: {args.episodes} must be >= 1")
    if Path(args.out).exists():
        parser.error(f"--out: {args.out} exists; a start bank is never overwritten (choose another path)")
    single_thread_acting()
    t0 = time.perf_counter()
    try:
        starts, counts = record_call_starts(
            scenarios,
            args.episodes,
            args.split,
            args.seed,
            args.agent,
            args.skill,
            args.ee_within,
            args.first_only,
        )
    except ValueError as e:
        parser.error(str(e))
    if not starts:
        parser.error(f"no {args.skill} call was recorded; nothing written")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    save_episodes(args.out, starts)
    seconds = round(time.perf_counter() - t0, 1)
    print(
        f"{counts['kept']} {args.skill} starts from {counts['calls']} {args.skill} calls in {args.episodes} episodes "
        f"x {len(scenarios)} scenarios -> {args.out} in {seconds} s"
    )
    print(
        json.dumps(
            {
                "out": args.out,
                "split": args.split,
                "skill": args.skill,
                "scenarios": scenarios,
                "first_only": args.first_only,
                **counts,
                "seconds": seconds,
            }
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
