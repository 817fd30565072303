"""HAB metrics: stage-wise success, full-task success, steps, failure attribution, summaries with CIs.

Stages (hab-reference "Stage-wise metric") have the same names in every episode of a scenario: per target
in spec order, ``open_<container>`` when it starts in a closed container, then ``pick_<k>`` (k target
objects have been held) and ``place_<k>`` (k target objects have been put down within 0.3 m of their
goals). Counting objects rather than naming them keeps the curve meaningful whatever order the planner
chooses. `StageTracker` checks the live simulator after every step and remembers when each object was
first held and first placed and each container first opened. A stage counts as a success when it and
every stage before it were reached, so the stage curve never rises. Intervals are Wilson 95%
(`skills.evaluate.wilson_interval`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np

from skills.evaluate import wilson_interval
from tpsrl.sim.backend import SimBackend
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.symbolic import Thresholds, is_opened

__all__ = ["EpisodeResult", "SkillRecord", "StageTracker", "Stage", "stages_of", "summarize", "summary_table"]

TH = Thresholds()
FAILURE_CAUSES = (
    "timeout",
    "knocked_off",
    "drop",
    "force",
    "wrong_grasp",
    "stop_far",
    "release_away",
    "effect_missing",
    "no_plan",
    "out_of_retries",
    "episode_cap",
    "unstable",
    "no_skill",
)
"""How a skill (or the planner) failed; see docs/evaluation.md "Failure attribution"."""


@dataclass(frozen=True)
class Stage:
    """One stage goal: `kind` (open, pick, place) and `subject` (a container, or the count k of objects)."""

    kind: str
    subject: str

    @property
    def name(self) -> str:
        return f"{self.kind}_{self.subject}"


def stages_of(spec: EpisodeSpec) -> tuple[Stage, ...]:
    """The stages of an episode, in the order the reference plan reaches them."""
    arts = spec.articulation_dict
    start = {o.handle: o.receptacle for o in spec.objects}
    out: list[Stage] = []
    for k, t in enumerate(spec.targets, start=1):
        rec = start.get(t.handle)
        if rec in arts and not is_opened(rec, arts[rec], TH) and Stage("open", rec) not in out:
            out.append(Stage("open", rec))
        out += [Stage("pick", str(k)), Stage("place", str(k))]
    return tuple(out)


class StageTracker:
    """When each target was first held and first placed, and each container first opened."""

    def __init__(self, spec: EpisodeSpec) -> None:
        self.stages = stages_of(spec)
        self.goals = {t.handle: np.asarray(t.goal) for t in spec.targets}
        self.containers = [s.subject for s in self.stages if s.kind == "open"]
        self.held: dict[str, int] = {}
        self.placed: dict[str, int] = {}
        self.opened: dict[str, int] = {}

    def update(self, backend: SimBackend, step: int) -> None:
        held = backend.held
        if held in self.goals and held not in self.held:
            self.held[held] = step
        for h, goal in self.goals.items():
            if h in self.held and h not in self.placed and held != h:
                if float(np.linalg.norm(backend.object_pos(h) - goal)) < TH.object_at:
                    self.placed[h] = step
        for c in self.containers:
            if c not in self.opened and is_opened(c, backend.articulation(c), TH):
                self.opened[c] = step

    @property
    def first(self) -> dict[str, int]:
        """Stage name -> the step it was first reached (reached stages only)."""
        out = {f"open_{c}": t for c, t in self.opened.items()}
        for kind, times in (("pick", self.held), ("place", self.placed)):
            out.update({f"{kind}_{k}": t for k, t in enumerate(sorted(times.values()), start=1)})
        return out

    @property
    def names(self) -> list[str]:
        return [s.name for s in self.stages]

    def success(self) -> list[bool]:
        """Per stage: it and every earlier stage were reached."""
        first = self.first
        out, ok = [], True
        for s in self.stages:
            ok = ok and s.name in first
            out.append(ok)
        return out


@dataclass
class SkillRecord:
    """One skill call of an episode: what ran, for how long, and how it ended."""

    skill: str
    target: str
    steps: int
    done: bool
    """The skill's own termination fired (else it hit its step limit)."""
    failure: str | None = None
    """None, or a cause in FAILURE_CAUSES when the monitor found its effects missing."""
    detail: str = ""
    knocked: list[str] = field(default_factory=list)
    """Target objects that fell to the floor during this call (not held, below 0.3 m)."""


@dataclass
class EpisodeResult:
    """One evaluated HAB episode (one line of results.jsonl)."""

    index: int
    episode_id: str
    layout: int
    scenario: str
    agent: str
    full_success: bool
    goal_reached: bool
    stopped: bool
    steps: int
    stage_names: list[str]
    stage_success: list[bool]
    stage_steps: dict[str, int]
    plan_length: int
    replans: int
    failed_skill: str | None = None
    failure: str | None = None
    failure_detail: str = ""
    skills: list[SkillRecord] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def rescued(self) -> bool:
        """Succeeded after at least one replan."""
        return self.full_success and self.replans > 0

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> EpisodeResult:
        data = dict(d)
        data["skills"] = [SkillRecord(**s) for s in data.get("skills", [])]
        return cls(**data)


def _rate(k: int, n: int) -> dict[str, float]:
    lo, hi = wilson_interval(k, n)
    return {"rate": k / n if n else math.nan, "lo": lo, "hi": hi, "k": k}


def summarize(results: Iterable[EpisodeResult]) -> dict[str, Any]:
    """Rates with Wilson 95% intervals, steps, failure attribution and replanning figures."""
    rs = list(results)
    n = len(rs)
    names = rs[0].stage_names if rs else []
    stage = [_rate(sum(r.stage_success[i] for r in rs), n) for i in range(len(names))]
    causes = Counter(f"{r.failed_skill or 'planner'}/{r.failure}" for r in rs if not r.full_success)
    return {
        "episodes": n,
        "full_success": _rate(sum(r.full_success for r in rs), n),
        "stage_names": names,
        "stage": stage,
        "mean_steps": float(np.mean([r.steps for r in rs])) if rs else math.nan,
        "failures": dict(causes.most_common()),
        "replanned_episodes": sum(r.replans > 0 for r in rs),
        "rescued_by_replanning": sum(r.rescued for r in rs),
        "env_steps": sum(r.steps for r in rs),
        "episode_seconds": sum(r.seconds for r in rs),
    }


def _pct(r: Mapping[str, float]) -> str:
    return f"{100 * r['rate']:5.1f}% [{100 * r['lo']:4.1f}, {100 * r['hi']:5.1f}]"


def summary_table(summary: Mapping[str, Any], title: str = "") -> str:
    """A plain-text table: each stage and the full task with its 95% interval, then the failures."""
    n = summary["episodes"]
    lines = [title] if title else []
    lines.append(f"{'stage':<22} {'success (95% CI)':>26}   (n={n})")
    for name, r in zip(summary["stage_names"], summary["stage"], strict=True):
        lines.append(f"{name:<22} {_pct(r):>26}")
    lines.append(f"{'FULL TASK':<22} {_pct(summary['full_success']):>26}")
    lines.append(
        f"mean steps {summary['mean_steps']:.0f}; replanned in {summary['replanned_episodes']} episodes, "
        f"rescued by replanning {summary['rescued_by_replanning']}"
    )
    fails = summary["failures"]
    lines.append("failures (skill/cause): " + (", ".join(f"{k} x{v}" for k, v in fails.items()) or "none"))
    return "\n".join(lines)
