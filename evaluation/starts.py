"""Record where place starts inside HAB chains, on training layouts, as a place start bank.

The place skill is trained from HAB's place spawns; inside a chain it starts wherever the learned nav
(or a failed earlier call) left the robot, holding what pick grasped. This runs the `tp_srl` agent on
HAB episodes drawn on the *training* layouts and writes, for every place call, the place episode its
own task would have set up at that moment (robot pose and arm, objects where they lie, doors and
drawers as they are, the object held): a file `skill.start_bank` trains place from
(`skills/starts.py`). Held-out layouts are never recorded.

    python -m evaluation.starts --scenarios tidy_house,prepare_groceries,set_table --episodes 60 \
        --out docs/results/starts/place_chain_train.json
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import replace
from pathlib import Path

from evaluation.agent import HierarchicalAgent, make_episode_env
from evaluation.config import EvalConfig
from evaluation.episodes import generate_episodes, scenario_names
from evaluation.grounding import GroundedCall
from evaluation.run import prepare
from skills.registry import make_env
from skills.starts import live_objects, recreated
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.env import RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec, RobotStart, save_episodes

RECORD_SEED = 3_000_000
"""Seed of the recorded HAB episode sets (other than any evaluation's)."""


class PlaceStarts:
    """A `HierarchicalAgent.call_hook` that keeps every place call's start as a place episode."""

    def __init__(self, split: str) -> None:
        self.starts: list[EpisodeSpec] = []
        self.tag = ""
        self.counts = {"place_calls": 0, "not_holding_target": 0, "not_recreated": 0}
        self._check = make_env("place", split=split)

    def __call__(
        self, env: RearrangeEnv, episode: EpisodeSpec, call: GroundedCall, spec: EpisodeSpec
    ) -> None:
        if call.skill != "place":
            return
        self.counts["place_calls"] += 1
        b = env.backend
        if b.held != call.target:  # the chain calls place only holding it; a bank needs that too
            self.counts["not_holding_target"] += 1
            return
        x, y, yaw = b.base_pose
        start = replace(
            spec,
            robot=RobotStart(float(x), float(y), float(yaw), tuple(float(q) for q in b.arm_qpos)),
            objects=live_objects(b, episode),
            episode_id=f"chain-{self.tag}-{self.counts['place_calls']}",
        )
        start = recreated(self._check.backend, start)
        if start is None:
            self.counts["not_recreated"] += 1
            return
        self.starts.append(start)


def record_place_starts(
    scenarios: list[str], episodes: int, split: str = "train", seed: int = RECORD_SEED, agent: str = "tp_srl"
) -> tuple[list[EpisodeSpec], dict[str, int]]:
    """Runs `agent` (shipped skills) on `episodes` HAB episodes of each scenario on `split` layouts and
    returns the place starts of its chains, and counts."""
    recorder = PlaceStarts(split)
    for scenario in scenarios:
        sources, depth = prepare(EvalConfig(scenario=scenario, agent=agent))
        chain = HierarchicalAgent(agent, sources)
        chain.call_hook = recorder
        env = make_episode_env(depth)
        for i, spec in enumerate(generate_episodes(scenario, episodes, seed, split=split)):
            recorder.tag = f"{scenario}-{i}"
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
    parser.add_argument("--out", required=True, help="episodes file to write (never overwritten)")
    args = parser.parse_args(argv)
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
        starts, counts = record_place_starts(scenarios, args.episodes, args.split, args.seed, args.agent)
    except ValueError as e:
        parser.error(str(e))
    if not starts:
        parser.error("no place call was recorded; nothing written")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    save_episodes(args.out, starts)
    seconds = round(time.perf_counter() - t0, 1)
    print(f"{counts['kept']} place starts from {counts['place_calls']} place calls in {args.episodes} episodes "
          f"x {len(scenarios)} scenarios -> {args.out} in {seconds} s")  # fmt: skip
    print(
        json.dumps(
            {"out": args.out, "split": args.split, "scenarios": scenarios, **counts, "seconds": seconds}
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
