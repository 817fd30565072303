"""Closed-loop plan execution (pure logic): check each skill's effects, replan from what was observed.

The monitor never runs a skill itself. An executor asks it for :attr:`ExecutionMonitor.next_action`, runs
the matching skill (see :func:`planner.skills.skill_call`), and hands back the facts the simulator reports
with :meth:`ExecutionMonitor.observe`::

    monitor = ExecutionMonitor(problem, domain, max_replans=3)
    while (action := monitor.next_action) is not None:
        run_skill(skill_call(action))
        monitor.observe(sim_facts())          # tuples such as ("holding", "apple") are fine
    print(monitor.status, monitor.failures)

After each step the monitor compares the action's expected effects with the observation, and checks that
the rest of the plan still runs and reaches the goal from the observed state (something else may have
changed: the fridge found closed). On a mismatch it records a :class:`StepFailure` saying which step failed
and why, and replans from the observed state, at most ``max_replans`` times.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from planner.diagnose import half_open
from planner.domain import Domain
from planner.facts import Fact, FactLike, GroundAction, InvalidPlanError, NoPlan, PlanResult, State, simulate
from planner.problem import Problem, observed_state
from planner.search import plan as optimal_plan

__all__ = ["ExecutionMonitor", "MonitorStatus", "StepFailure", "execute"]

# `robot_at` means "within reach" (planar distance < 2 m in the simulator), so after nav(b) the robot may
# still be observed near where it came from; a lingering robot_at is not a failure.
_PROXIMITY_PREDICATES = frozenset({"robot_at"})


class MonitorStatus(enum.Enum):
    RUNNING = "running"
    SUCCEEDED = "succeeded"
    NO_PLAN = "no_plan"
    OUT_OF_RETRIES = "out_of_retries"


@dataclass(frozen=True)
class StepFailure:
    """Why the plan stopped fitting the world after one skill call.

    Attributes:
        step: 0-based index of the skill call in the episode (counting every call executed).
        action: the action that was executed.
        missing: expected effects that were not observed.
        lingering: facts the action should have made false that are still observed.
        blocked: when the effects matched, the preconditions of a later planned step that no longer hold.
        reason: a one-line explanation.
    """

    step: int
    action: GroundAction
    missing: tuple[Fact, ...]
    lingering: tuple[Fact, ...]
    blocked: tuple[Fact, ...]
    reason: str

    def __str__(self) -> str:
        return f"step {self.step} {self.action}: {self.reason}"


Planner = Callable[[Problem, Domain], PlanResult]


class ExecutionMonitor:
    """Tracks a plan while skills execute it; see the module docstring for the loop that drives it."""

    def __init__(
        self, problem: Problem, domain: Domain, *, max_replans: int = 3, planner: Planner = optimal_plan
    ):
        if max_replans < 0:
            raise ValueError(f"max_replans must be >= 0, got {max_replans}")
        self.problem = problem
        self.domain = domain
        self.max_replans = max_replans
        self.planner = planner
        self.state: State = problem.init
        self.executed: list[GroundAction] = []
        self.failures: list[StepFailure] = []
        self.plans: list[tuple[GroundAction, ...]] = []
        self.no_plan: NoPlan | None = None
        self.status = MonitorStatus.RUNNING
        self._plan: tuple[GroundAction, ...] = ()
        self._cursor = 0
        if problem.goal <= problem.init:
            self.status = MonitorStatus.SUCCEEDED
        else:
            self._adopt(planner(problem, domain))

    @property
    def replans(self) -> int:
        return max(0, len(self.plans) - 1)

    @property
    def next_action(self) -> GroundAction | None:
        """The action to execute next, or None once the monitor has finished (see :attr:`status`)."""
        if self.status is not MonitorStatus.RUNNING:
            return None
        return self._plan[self._cursor]

    @property
    def remaining(self) -> tuple[GroundAction, ...]:
        """The planned actions not yet executed, next action first."""
        return self._plan[self._cursor :] if self.status is MonitorStatus.RUNNING else ()

    def observe(self, observed: Iterable[FactLike]) -> StepFailure | None:
        """Report the facts observed after executing :attr:`next_action`; returns the failure, if any.

        The call is all or nothing: if it raises (a bad observation, a failing planner), the monitor is
        left as it was, so calling it again for the same step records the action once.

        Raises:
            RuntimeError: if the monitor has already finished.
            ProblemError: if an observed fact names an unknown object or predicate, or the observed facts
                contradict each other.
        """
        action = self.next_action
        if action is None:
            raise RuntimeError(f"the monitor has finished ({self.status.value}); nothing was executing")
        state = observed_state(self.problem, self.domain, observed)
        if self.problem.goal <= state:
            self.executed.append(action)
            self.state, self.status = state, MonitorStatus.SUCCEEDED
            return None
        failure = self._check(action, state, step=len(self.executed))
        if failure is None:
            self.executed.append(action)
            self.state, self._cursor = state, self._cursor + 1
            return None
        out_of_retries = self.replans >= self.max_replans
        # Plan before recording anything: a planner that raises leaves the monitor unchanged.
        replanned = None if out_of_retries else self.planner(self.problem.with_init(state), self.domain)
        self.executed.append(action)
        self.state = state
        self.failures.append(failure)
        if replanned is None:
            self.status = MonitorStatus.OUT_OF_RETRIES
        else:
            self._adopt(replanned)
        return failure

    def _check(self, action: GroundAction, state: State, step: int) -> StepFailure | None:
        missing = tuple(sorted(action.add - state))
        lingering = tuple(
            sorted(
                f for f in (action.delete - action.add) & state if f.predicate not in _PROXIMITY_PREDICATES
            )
        )
        if missing or lingering:
            parts = [f"expected {', '.join(map(str, missing))} but it is not observed"] if missing else []
            parts += [f"expected {', '.join(map(str, lingering))} to stop holding"] if lingering else []
            parts += self._half_open_notes(missing, state)
            return StepFailure(step, action, missing, lingering, (), "; ".join(parts))
        rest = self._plan[self._cursor + 1 :]
        try:
            final = simulate(state, rest)
        except InvalidPlanError as exc:
            later = self._cursor + 1 + exc.step
            facts = ", ".join(map(str, sorted(exc.missing)))
            reason = f"planned step {exc.action} can no longer run: {facts} does not hold"
            notes = "".join(f"; {n}" for n in self._half_open_notes(exc.missing, state))
            return StepFailure(
                step, action, (), (), tuple(sorted(exc.missing)), f"{reason} (plan index {later}){notes}"
            )
        unmet = tuple(sorted(self.problem.goal - final))
        if not unmet:
            return None
        reason = f"the rest of the plan no longer reaches {', '.join(map(str, unmet))}"
        return StepFailure(step, action, (), (), unmet, reason)

    def _half_open_notes(self, facts: Iterable[Fact], state: State) -> list[str]:
        """'fridge is half open ...' for each receptacle whose expected opened/closed fact is missing."""
        stuck = set(half_open(state, self.problem.objects, self.domain))
        wanted = sorted({f.args[0] for f in facts if f.predicate in ("opened", "closed")} & stuck)
        return [f"{r} is half open (neither opened nor closed)" for r in wanted]

    def _adopt(self, result: PlanResult) -> None:
        if isinstance(result, NoPlan):
            self.no_plan = result
            self.status = MonitorStatus.NO_PLAN
            return
        self.plans.append(result.actions)
        self._plan, self._cursor = result.actions, 0
        if not result.actions:  # already at the goal (the observation satisfied it)
            self.status = MonitorStatus.SUCCEEDED


def execute(
    problem: Problem,
    domain: Domain,
    executor: Callable[[GroundAction], Iterable[FactLike]],
    *,
    max_replans: int = 3,
    max_steps: int = 200,
) -> ExecutionMonitor:
    """Run the monitor loop with ``executor`` (runs one action, returns the observed facts) to the end.

    Stops after ``max_steps`` skill calls even if the monitor is still running (the status then says so).
    """
    monitor = ExecutionMonitor(problem, domain, max_replans=max_replans)
    for _ in range(max_steps):
        action = monitor.next_action
        if action is None:
            break
        monitor.observe(executor(action))
    return monitor
