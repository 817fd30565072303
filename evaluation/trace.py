"""Where skill calls inside HAB episodes start and why they fail: a diagnostic of the chain.

    python -m evaluation.trace --scenario tidy_house --agent tp_srl --episodes 20
    python -m evaluation.trace --skills nav_to_obj,pick --json

Runs the agent on the scenario's held-out episodes (the same set as `tpsrl-eval`) and records, for each
call of the traced skills: whether it started nearer than 0.4 m to walls or furniture (where the skill
tasks never spawn the robot), the heading error to its target, whether the robot held something, and
over the call the distance the base moved and the steps with more than 1 kN of robot contact force. A
failed call whose base ended its last 100 steps less than 0.5 m from where it began them, with that force
on over half of them, counts as stuck (wedged against furniture). Prints one summary line per skill; `--json` adds one JSON object on the last line.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from evaluation.agent import HierarchicalAgent, make_episode_env
from evaluation.config import parse_overrides
from evaluation.episodes import generate_episodes
from evaluation.grounding import GroundedCall
from evaluation.metrics import SkillRecord
from evaluation.run import prepare
from evaluation.skillview import call_spec
from skills.terms import heading_error
from tpsrl.engine.inference import single_thread_acting
from tpsrl.sim.mujoco import layout as L

STUCK_FORCE = 1e3  # N of robot contact force: pressing on furniture, not brushing it
STUCK_MOVED = 0.5  # m: net base displacement over a failed call's last STUCK_WINDOW steps
STUCK_WINDOW = 100


@dataclass
class CallTrace:
    """One traced skill call: its start, what the base did, and how it ended."""

    skill: str
    near_furniture: bool
    heading_error: float
    held: bool
    steps: int = 0
    moved: float = 0.0
    """Path length of the base over the call (m)."""
    force_steps: int = 0
    """Steps with more than STUCK_FORCE of robot contact force."""
    stuck: bool = False
    """Failed, and its last STUCK_WINDOW steps moved the base less than STUCK_MOVED, pressing."""
    ok: bool = False


class TracingAgent(HierarchicalAgent):
    """The hierarchical agent, recording a `CallTrace` for each call of the traced skills."""

    def __init__(self, *args: Any, skills: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.traced, self.traces = skills, []
        self._pending: list[tuple[CallTrace, SkillRecord]] = []
        self._path: list[np.ndarray] | None = None  # base positions of the traced call running now
        self._pressing: list[bool] = []

    def _run_skill(self, ep: Any, call: GroundedCall) -> tuple[SkillRecord, dict[str, Any]]:
        if call.skill not in self.traced:
            return super()._run_skill(ep, call)
        b = ep.env.backend
        spec = call_spec(ep.spec, call, b)
        if spec.nav_goal is not None:
            target = np.asarray(spec.nav_goal[:2])
        elif spec.targets:
            target = np.asarray(
                spec.targets[0].goal if call.skill == "place" else b.object_pos(spec.targets[0].handle)
            )[:2]
        else:
            target = np.asarray(b.base_pose[:2])
        x, y, _ = b.base_pose
        t = CallTrace(
            call.skill, not L.is_free(ep.spec.layout, x, y), heading_error(b, target), b.held is not None
        )
        self._path, self._pressing = [np.array([x, y])], []
        try:
            rec, before = super()._run_skill(ep, call)
        finally:
            path, pressing, self._path = self._path, self._pressing, None
        t.steps, t.force_steps = rec.steps, sum(pressing)
        t.moved = float(np.linalg.norm(np.diff(np.array(path), axis=0), axis=1).sum())
        window = path[-STUCK_WINDOW - 1 :]
        t.stuck = (
            len(pressing) >= STUCK_WINDOW
            and float(np.linalg.norm(window[-1] - window[0])) < STUCK_MOVED
            and sum(pressing[-STUCK_WINDOW:]) > STUCK_WINDOW / 2
        )
        self._pending.append((t, rec))
        return rec, before

    def _after_step(self, ep: Any, skill: str) -> None:
        super()._after_step(ep, skill)
        if self._path is not None:  # inside a traced call (the reset-arm phase runs after it)
            b = ep.env.backend
            self._path.append(np.asarray(b.base_pose[:2]))
            self._pressing.append(float(b.force_instant) > STUCK_FORCE)

    def run(self, *args: Any, **kwargs: Any) -> Any:
        result = super().run(*args, **kwargs)
        for t, rec in self._pending:  # the monitor sets a call's failure after the call returns
            t.ok = rec.failure is None
            t.stuck = t.stuck and not t.ok
            self.traces.append(t)
        self._pending.clear()
        return result


def summarise(traces: list[CallTrace]) -> dict[str, dict[str, Any]]:
    """Per skill: calls, success, success from starts near furniture and clear of it, stuck failures."""
    by: dict[str, list[CallTrace]] = defaultdict(list)
    for t in traces:
        by[t.skill].append(t)
    out = {}
    for skill, ts in sorted(by.items()):
        near = [t for t in ts if t.near_furniture]
        clear = [t for t in ts if not t.near_furniture]
        failed = [t for t in ts if not t.ok]
        out[skill] = {
            "calls": len(ts),
            "ok": sum(t.ok for t in ts),
            "near_furniture": len(near),
            "ok_near": sum(t.ok for t in near),
            "ok_clear": sum(t.ok for t in clear),
            "held": sum(t.held for t in ts),
            "failed": len(failed),
            "stuck": sum(t.stuck for t in failed),
            "median_heading_error": float(np.median([t.heading_error for t in ts])),
        }
    return out


def trace(scenario: str, agent: str, episodes: int, seed: int, skills: tuple[str, ...]) -> list[CallTrace]:
    """Runs `episodes` held-out episodes of `scenario` with `agent` and returns the traced calls."""
    cfg = parse_overrides([f"scenario={scenario}", f"agent={agent}", f"episodes={episodes}", f"seed={seed}"])
    sources, depth = prepare(cfg)
    tracer = TracingAgent(cfg.agent, sources, cfg.chain, skills=skills)
    env = make_episode_env(depth)
    for i, spec in enumerate(generate_episodes(scenario, episodes, seed)):
        tracer.run(env, spec, scenario, i)
    env.close()
    return tracer.traces


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m evaluation.trace", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenario", default="tidy_house", help="HAB scenario (default tidy_house)")
    parser.add_argument("--agent", default="tp_srl", help="agent variant (default tp_srl)")
    parser.add_argument("--episodes", type=int, default=20, help="episodes (default 20)")
    parser.add_argument("--seed", type=int, default=0, help="episode-set seed (default 0, as tpsrl-eval)")
    parser.add_argument("--skills", default="nav_to_obj,pick,place", help="skills to trace, comma-separated")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error(f"--episodes: {args.episodes} must be >= 1")
    single_thread_acting()
    skills = tuple(s.strip() for s in args.skills.split(",") if s.strip())
    traces = trace(args.scenario, args.agent, args.episodes, args.seed, skills)
    summary = summarise(traces)
    for skill, s in summary.items():
        print(
            f"{skill}: {s['ok']}/{s['calls']} calls succeeded; started near furniture {s['near_furniture']} "
            f"(succeeded {s['ok_near']}), clear {s['calls'] - s['near_furniture']} (succeeded {s['ok_clear']}); "
            f"holding {s['held']}; failed {s['failed']}, stuck {s['stuck']}; "
            f"median start heading error {s['median_heading_error']:.2f} rad"
        )
    if args.json:
        print(json.dumps({"summary": summary, "calls": [asdict(t) for t in traces]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
