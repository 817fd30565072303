"""The hierarchical agent: the task planner's plan run skill by skill in one HAB episode env.

Per hab-reference "Skill execution inside a HAB episode": each planned action becomes a skill call
(`evaluation.grounding`); the skill's policy sees its own task's observations and action space
(`evaluation.skillview`) and runs until its own `done()` or a step limit (default 200, nav 300); a
reset-arm phase (at most 50 steps) then returns the arm to its resting joint pose. After each skill the
execution monitor (`planner.ExecutionMonitor`) compares the world's facts with the plan and replans
when they deviate. Once the plan is done the agent calls stop; the episode is a full success when the
PDDL goal holds at that moment.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np
import torch

from evaluation.grounding import GroundedCall, Grounding, ground_episode, sim_facts
from evaluation.metrics import EpisodeResult, SkillRecord, StageTracker
from evaluation.policies import SkillSources, get_agent
from evaluation.skillview import SkillView, call_spec, full_action, skill_env_config
from planner import ExecutionMonitor, GroundAction, MonitorStatus, ProblemError, StepFailure, fact
from skills.config import acting_config
from skills.learned import SkillCheckpointError
from skills.policy import ActionLayout, SkillPolicy
from skills.registry import task_class
from skills.scripted.control import REST_JOINTS, Robot
from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig, RearrangeEnv
from tpsrl.sim.episode import EpisodeSpec

__all__ = ["AgentConfig", "HierarchicalAgent", "StepInfo", "make_episode_env"]

FLOOR_Z = (
    0.3  # m: a target object below this is on the floor (no surface is this low; the arm reaches >= 0.4)
)
FORCE_LIMIT = 1e4  # HAB's instant force limit (N); a skill call above it failed by force
REST_JOINT_TOL = 0.05  # rad: the reset-arm phase ends when every arm joint is this close to rest


@dataclass
class AgentConfig:
    """How skills are chained in an episode."""

    LEGACY: ClassVar[dict[str, Any]] = {"reapproach_retries": False, "arm_speed": "capped"}
    """Fields added after evaluation runs were made, with the value those runs had (their config.json
    lacks the field); `saved_chain` fills them in."""

    skill_steps: int = 200
    """Step limit of a skill call (hab-reference: 200)."""
    nav_steps: int = 300
    """Step limit of a nav call (hab-reference: 300)."""
    reset_arm_steps: int = 50
    """Step limit of the reset-arm phase after each skill (hab-reference: 50)."""
    max_replans: int = 10
    """Replans the execution monitor may make per episode (HAB's TP-SRL runs its plan once; 3 before
    2026-11-24: with sampled retries, 10 raised every learned stage, docs/results.md)."""
    half_open_recoveries: int = 2
    """Times per episode a door left half open (planner: no plan) is opened by its skill before replanning."""
    max_skill_calls: int = 60
    """Skill calls per episode before it is cut off."""
    max_steps: int = 6000
    """Env steps per episode before it is cut off (HAB's monolithic cap is 3000; 20 calls x 250 exceed it)."""
    depth: int = 0
    """Head depth resolution of the episode env (0: none); learned skills with depth need theirs."""
    arm_speed: str = "capped"
    """How fast the episode env's arm joints follow full arm actions (`tpsrl.sim.backend.ARM_SPEEDS`):
    "capped" (every shipped skill was trained so) or "fast". A learned skill trained under the other
    speed runs under this one (the run says so when it starts)."""
    sample: bool = False
    """Learned skills sample their actions, as in training (seeded per episode), instead of acting on the
    mean. A skill that ends itself with the stop action can reach its goal and never call stop on the mean:
    nav trained 0.37M steps, 37% held-out on the mean, 67% sampled."""
    noise_scale: float = 1.0
    """Sampled actions (`sample`, `sample_retries`) draw their noise at this multiple of each learned
    skill's std (1: as trained)."""
    sample_retries: bool = True
    """A learned skill call that repeats one that failed earlier in the episode (same skill and target,
    after a replan) samples its actions instead of acting on the mean: on the mean it runs the same
    trajectory from the same state again. False: every call on the mean (the runs before 2026-11-24)."""
    reapproach_retries: bool = True
    """Before a call that repeats a failed one (pick, place, open, close: same skill and target), nav to
    its entity again, for agents with a nav skill. Without it the retry starts where the failed call left
    the robot (pressed against furniture, say): in 100 Tidy House `tp_srl` episodes such retries
    succeeded in 4% (place) and 14% (pick) of calls, against 72% and 77% after a nav
    (docs/results.md). False: the runs before 2026-11-25."""


def saved_chain(saved: dict[str, Any]) -> AgentConfig:
    """The chain settings an evaluation run was made with, from its config.json's `chain` section
    (fields the run predates at the value it had)."""
    return AgentConfig(**{**AgentConfig.LEGACY, **saved.get("chain", {})})


@dataclass
class StepInfo:
    """What a step observer (videos) is told about the agent's progress."""

    skill: str
    call: int
    plan_len: int
    stages: list[bool]
    stage_names: list[str]
    replans: int
    steps: int


Observer = Callable[[RearrangeEnv, StepInfo], None]
CallHook = Callable[[RearrangeEnv, EpisodeSpec, GroundedCall, EpisodeSpec], None]


def make_episode_env(depth: int = 0, arm_speed: str = "capped") -> RearrangeEnv:
    """The HAB episode env: full action space (arm, grip, base, stop), no step cap of its own."""
    dep = DepthSettings(mode="raycast", height=depth, width=depth) if depth else DepthSettings("none")
    obs = ("is_holding",) + (("head_depth",) if depth else ())
    return RearrangeEnv(
        EnvConfig(observations=obs, depth=dep, max_steps=10**9, n_targets=1, arm_speed=arm_speed)
    )


@dataclass
class _Episode:
    """Mutable state of one running episode."""

    env: RearrangeEnv
    spec: EpisodeSpec
    grounding: Grounding
    tracker: StageTracker
    monitor: ExecutionMonitor
    observer: Observer | None
    steps: int = 0
    unstable: bool = False
    records: list[SkillRecord] = field(default_factory=list)
    recoveries: int = 0
    earlier_replans: int = 0

    @property
    def replans(self) -> int:
        """Replans over the episode: the monitor's, earlier monitors', and one per half-open recovery."""
        return self.earlier_replans + self.monitor.replans


class HierarchicalAgent:
    """TP-SRL / TP-SPA: plan, then run each planned action with its skill policy."""

    def __init__(self, agent: str, sources: SkillSources, cfg: AgentConfig | None = None) -> None:
        self.name = agent
        self.spec = get_agent(agent)
        self.sources = sources
        self.cfg = cfg or AgentConfig()
        self._policies: dict[str, SkillPolicy] = {}
        self._env_cfgs: dict[str, EnvConfig] = {}
        self.call_hook: CallHook | None = None
        """Called at the start of every skill call with the episode env, the episode, the call and the
        episode as the call's skill's own task would set it up (`evaluation.starts` records place starts)."""

    def _policy(self, skill: str) -> tuple[SkillPolicy, EnvConfig]:
        if skill not in self._policies:
            self._policies[skill] = self.sources.make(skill)
            base = self.sources.base_movement.get(skill, True)
            learned = getattr(self._policies[skill], "config", None)
            if learned is not None:  # a learned skill sees and acts exactly as it was trained
                self._env_cfgs[skill] = task_class(skill)(
                    acting_config(replace(learned, base_movement=base))
                ).env_config()
            else:
                self._env_cfgs[skill] = skill_env_config(skill, base, self.cfg.depth)
        return self._policies[skill], self._env_cfgs[skill]

    def run(
        self,
        env: RearrangeEnv,
        spec: EpisodeSpec,
        scenario: str = "",
        index: int = 0,
        observer: Observer | None = None,
    ) -> EpisodeResult:
        """Run one HAB episode in `env` and score it."""
        t0 = time.perf_counter()
        env.reset(options={"episode": spec})
        if self.cfg.sample or self.cfg.sample_retries:
            torch.manual_seed(index)  # sampled actions of episode `index` do not depend on its process
        grounding = ground_episode(spec, self.spec.domain, articulations=env.backend.rules().articulations)
        monitor = ExecutionMonitor(
            grounding.problem_from(env.backend), grounding.domain, max_replans=self.cfg.max_replans
        )
        ep = _Episode(env, spec, grounding, StageTracker(spec), monitor, observer)
        plan_len = len(monitor.remaining)
        error = self._execute(ep)
        while not error and self._recover_half_open(ep):
            error = self._execute(ep)
        monitor = ep.monitor
        goal = grounding.problem.goal <= grounding.observe(env.backend) if not ep.unstable else False
        stopped = monitor.status is MonitorStatus.SUCCEEDED and not ep.unstable
        if stopped:
            env.step(ActionLayout.of(env).make(stop=True))
            ep.steps += 1
        result = EpisodeResult(
            index,
            spec.episode_id,
            spec.layout,
            scenario,
            self.name,
            goal and stopped,
            goal,
            stopped,
            ep.steps,
            ep.tracker.names,
            ep.tracker.success(),
            dict(ep.tracker.first),
            plan_len,
            ep.replans,
            skills=ep.records,
            seconds=time.perf_counter() - t0,
        )
        if not result.full_success:
            _attribute(result, ep, error)
        return result

    def _execute(self, ep: _Episode) -> str:
        """Run the monitor loop; returns why it ended early ("" when the monitor finished)."""
        cfg = self.cfg
        while (action := ep.monitor.next_action) is not None:
            if len(ep.records) >= cfg.max_skill_calls or ep.steps >= cfg.max_steps:
                return "episode_cap"
            call = ep.grounding.skill_call(action)
            self._reapproach(ep, call)
            if ep.unstable:
                return "unstable"
            rec, before = self._run_skill(ep, call)
            ep.records.append(rec)
            if rec.failure == "no_skill":
                return "no_skill"
            if ep.unstable:
                rec.failure = "unstable"
                return "unstable"
            self._reset_arm(ep)
            try:
                failure = ep.monitor.observe(ep.grounding.planner_facts(sim_facts(ep.env.backend)))
            except ProblemError as e:
                rec.failure, rec.detail = "effect_missing", str(e)
                return "effect_missing"
            if failure is not None:
                rec.failure, rec.detail = _cause(call, rec, before, ep, failure), failure.reason
        return ""

    def _reapproach(self, ep: _Episode, call: GroundedCall) -> None:
        """`reapproach_retries`: a nav to the entity of `call` (its `robot_at` precondition) before it
        repeats a failed call; recorded like any call, judged by the call that follows it."""
        if not self.cfg.reapproach_retries or self.spec.domain != "rearrange" or call.skill == "nav_to_obj":
            return
        if not _repeats_failed(ep, call):
            return
        at = [f.args[0] for f in call.action.pre if f.predicate == "robot_at"]
        if not at:
            return
        nav = GroundAction("nav", (at[0],), frozenset(), frozenset({fact("robot_at", at[0])}), frozenset())
        rec, _ = self._run_skill(ep, ep.grounding.skill_call(nav))
        ep.records.append(rec)
        if ep.unstable:
            rec.failure = "unstable"
        else:
            self._reset_arm(ep)

    def _recover_half_open(self, ep: _Episode) -> bool:
        """No plan because a door is half open: open it with its skill (after a nav), then plan again.

        The planner's NoPlan names the half-open receptacles that block the goal (`NoPlan.half_open`);
        no PDDL action applies to a half-open door, but the open skill can finish opening it.
        """
        no_plan = ep.monitor.no_plan
        if no_plan is None or not no_plan.half_open or ep.recoveries >= self.cfg.half_open_recoveries:
            return False
        ep.recoveries += 1
        for r in no_plan.half_open:
            kind = ep.grounding.receptacles.get(r)
            skills = (("nav_to_obj",) if self.spec.domain == "rearrange" else ()) + (f"open_{kind}",)
            for skill in skills:
                rec, _ = self._run_skill(ep, _recovery_call(skill, r))
                ep.records.append(rec)
                if ep.unstable or rec.failure:
                    return False
                self._reset_arm(ep)
        ep.earlier_replans += ep.monitor.replans + 1
        ep.monitor = ExecutionMonitor(
            ep.grounding.problem_from(ep.env.backend), ep.grounding.domain, max_replans=self.cfg.max_replans
        )
        return True

    def _run_skill(self, ep: _Episode, call: GroundedCall) -> tuple[SkillRecord, dict[str, Any]]:
        """One skill call until its own termination or its step limit."""
        try:
            policy, env_cfg = self._policy(call.skill)
        except (SkillCheckpointError, FileNotFoundError) as e:  # a plan needed a skill this agent lacks
            return SkillRecord(call.skill, str(call), 0, False, "no_skill", str(e)), {}
        env, b = ep.env, ep.env.backend
        spec = call_spec(ep.spec, call, b)
        if self.call_hook is not None:
            self.call_hook(env, ep.spec, call, spec)
        view = SkillView(env, call.skill, env_cfg, spec)
        full = ActionLayout.of(env)
        runner = getattr(policy, "runner", None)
        if runner is not None:  # a learned skill: its mean, or sampled (chain.sample, a retried call)
            retry = self.cfg.sample_retries and _repeats_failed(ep, call)
            runner.deterministic = not (self.cfg.sample or retry)
            runner.noise_scale = self.cfg.noise_scale
        policy.reset(view)
        limit = self.cfg.nav_steps if call.skill == "nav_to_obj" else self.cfg.skill_steps
        before = {"held": b.held, "max_force": 0.0, "held_target": False}
        steps, done = 0, False
        up = {h for h in ep.tracker.goals if b.object_pos(h)[2] >= FLOOR_Z}
        while steps < limit and not done:
            a = policy.act(view.observe(), view)
            _, _, _, _, info = env.step(full_action(view, a, full, held=b.held is not None))
            steps += 1
            self._after_step(ep, call.skill)
            before["max_force"] = max(before["max_force"], float(info.get("force_instant", 0.0)))
            before["held_target"] = before["held_target"] or b.held == call.target
            if info.get("physics_unstable"):
                ep.unstable = True
                break
            done = policy.done()
        knocked = sorted(h for h in up if b.held != h and b.object_pos(h)[2] < FLOOR_Z)
        return SkillRecord(call.skill, str(call), steps, done, knocked=knocked), before

    def _after_step(self, ep: _Episode, skill: str) -> None:
        ep.steps += 1
        ep.tracker.update(ep.env.backend, ep.steps)
        if ep.observer is not None:
            m = ep.monitor
            info = StepInfo(
                skill,
                len(m.executed) + 1,
                len(m.executed) + len(m.remaining),
                ep.tracker.success(),
                ep.tracker.names,
                ep.replans,
                ep.steps,
            )
            ep.observer(ep.env, info)

    def _reset_arm(self, ep: _Episode) -> None:
        """Return the arm to its resting joint pose (at most reset_arm_steps steps), keeping the grip."""
        r = Robot(ep.env)
        for _ in range(self.cfg.reset_arm_steps):
            if float(np.abs(ep.env.backend.arm_qpos - REST_JOINTS).max()) < REST_JOINT_TOL:
                return
            r.grip = 1.0 if ep.env.backend.held is not None else -1.0
            _, _, _, _, info = ep.env.step(r.flat(r.joints_to(REST_JOINTS)))
            self._after_step(ep, "reset_arm")
            if info.get("physics_unstable"):
                ep.unstable = True
                return


def _repeats_failed(ep: _Episode, call: GroundedCall) -> bool:
    """Whether `call` (same skill and target) failed earlier in the episode: a retry."""
    target = str(call)
    return any(r.target == target and r.failure for r in ep.records)


def _recovery_call(skill: str, receptacle: str) -> GroundedCall:
    """A skill call on a receptacle outside the plan (half-open recovery)."""
    name = "nav" if skill == "nav_to_obj" else skill
    action = GroundAction(name, (receptacle,), frozenset(), frozenset(), frozenset())
    return GroundedCall(skill, receptacle, "receptacle", None, None, action)


def _cause(call: GroundedCall, rec: SkillRecord, before: dict[str, Any], ep: _Episode, f: StepFailure) -> str:
    """How a skill call failed, given the monitor's failure (docs/evaluation.md "Failure attribution")."""
    b = ep.env.backend
    if before["max_force"] > FORCE_LIMIT:
        return "force"
    if call.skill == "pick" and b.held is not None and b.held != call.target:
        return "wrong_grasp"
    if before["held"] is not None and b.held is None and call.skill != "place":
        return "drop"
    if call.skill == "pick" and before["held_target"] and b.held != call.target:
        return "drop"
    if not rec.done:
        return "timeout"
    if call.skill == "nav_to_obj" and any(m.predicate == "robot_at" for m in f.missing):
        return "stop_far"
    if call.skill == "place" and b.held is None and any(m.predicate == "object_at" for m in f.missing):
        return "release_away"
    return "effect_missing"


def _attribute(result: EpisodeResult, ep: _Episode, error: str) -> None:
    """Which skill failed and how: the last failed call, else the planner, the cap, or the final state."""
    failed = [r for r in ep.records if r.failure]
    no_plan = ep.monitor.no_plan
    knocked = [r for r in ep.records if r.knocked]
    if knocked:  # the root cause: an object the plan still needed ended on the floor, out of reach
        r = knocked[0]
        result.failed_skill, result.failure = r.skill, "knocked_off"
        result.failure_detail = f"{', '.join(r.knocked)} fell to the floor during {r.target}"
    elif failed:
        last = failed[-1]
        result.failed_skill, result.failure, result.failure_detail = last.skill, last.failure, last.detail
    elif no_plan is not None:
        result.failed_skill, result.failure, result.failure_detail = "planner", "no_plan", no_plan.reason
    elif error:
        result.failed_skill, result.failure = (ep.records[-1].skill if ep.records else "planner"), error
    else:
        result.failed_skill, result.failure = "agent", "effect_missing"
        result.failure_detail = "the plan finished but the goal does not hold"
