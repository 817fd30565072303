"""Grounding: one vocabulary between the simulator and the task planner.

The simulator and the planner name things differently; this module is the only place that translates:

* an :class:`~tpsrl.sim.episode.EpisodeSpec` becomes a planner :class:`~planner.Episode` and problem
  (:func:`ground_episode`): every object is a ``movable``, each target's goal position is the goal
  entity ``goal_<handle>`` (``tpsrl.sim.symbolic.goal_name``), articulated receptacles (``fridge``,
  ``drawer_<i>``) get their kind, and the goal is ``(object_at <handle> goal_<handle>)`` per target;
* the simulator's facts (``tpsrl.sim.symbolic.facts`` over a live backend) become the planner's observed
  state (:meth:`Grounding.observed_state`): ``not_holding`` is ``hand_empty``; ``in`` an open surface
  (``dining_table``) means on a surface, which the planner derives, so it is dropped along with
  ``robot_at`` a surface; a half-open door has neither ``opened`` nor ``closed`` in both vocabularies;
* plan actions become skill calls (:meth:`Grounding.skill_call`): the skill's name in
  ``skills.registry.TASKS`` and its target (object, goal entity or receptacle handle).

The planner never imports a simulator; this module imports both.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from planner.domain import Domain, builtin_domain
from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec
from planner.facts import Fact, GroundAction, State, fact
from planner.problem import Problem, observed_state, problem_from_episode
from planner.skills import skill_call as planner_skill_call
from skills.registry import TASKS
from tpsrl.sim.backend import SimBackend
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.symbolic import Thresholds, facts, goal_name, is_closed, is_opened

__all__ = [
    "PLANNER_SKILL_TASKS",
    "Grounding",
    "GroundedCall",
    "GroundingError",
    "ground_episode",
    "receptacle_kind",
    "sim_facts",
]

#: Planner skill (``planner.skills.SKILL_NAMES``) -> skill task name in ``skills.registry.TASKS``.
PLANNER_SKILL_TASKS: dict[str, str] = {
    "nav": "nav_to_obj",
    "pick": "pick",
    "place": "place",
    "open_fridge": "open_fridge",
    "close_fridge": "close_fridge",
    "open_drawer": "open_drawer",
    "close_drawer": "close_drawer",
}

#: The simulator's own predicate thresholds (hab-reference values).
SIM_THRESHOLDS = Thresholds()

#: Articulation name prefix in the simulator -> planner receptacle kind (as ``symbolic.is_opened`` reads it).
_KIND_PREFIXES: tuple[tuple[str, str], ...] = (("fridge", "fridge"), ("drawer", "drawer"))


class GroundingError(ValueError):
    """A simulator name or plan action that has no counterpart on the other side; names both."""


def receptacle_kind(name: str) -> str | None:
    """The planner kind of an articulated receptacle (``fridge``, ``drawer_0``), None for open surfaces."""
    return next((kind for prefix, kind in _KIND_PREFIXES if name.startswith(prefix)), None)


def sim_facts(backend: SimBackend, th: Thresholds = SIM_THRESHOLDS) -> frozenset[tuple[str, ...]]:
    """The simulator's facts about the backend's current state (``tpsrl.sim.symbolic.facts``)."""
    return facts(backend.scene_state(), th)


@dataclass(frozen=True)
class GroundedCall:
    """One skill call of a plan, in the simulator's names.

    Attributes:
        skill: the skill task name, a key of ``skills.registry.TASKS``.
        target: the handle the skill acts on: an object (pick, place, nav to it), a goal entity
            ``goal_<handle>`` (nav to it) or an articulated receptacle (open, close, nav to it).
        target_kind: ``"object"``, ``"goal"``, ``"receptacle"`` or ``"waypoint"``.
        goal: for place, the goal entity to put the object at; else None.
        goal_pos: the world position of the goal entity (place) or of the nav target when it is a goal.
        action: the planned action it executes.
    """

    skill: str
    target: str
    target_kind: str
    goal: str | None
    goal_pos: tuple[float, float, float] | None
    action: GroundAction

    def __str__(self) -> str:
        return f"{self.skill}({self.target}{', ' + self.goal if self.goal else ''})"


@dataclass(frozen=True)
class Grounding:
    """An episode in both vocabularies; built by :func:`ground_episode`.

    Attributes:
        spec: the simulator's episode.
        episode: the planner's episode (objects, goal positions, receptacles with their kinds).
        problem: the planning problem from the spec's initial state.
        domain: the planner domain (``rearrange`` or ``rearrange_nonav``).
        goal_positions: goal entity -> world position.
        goal_objects: goal entity -> the target object that must reach it.
    """

    spec: EpisodeSpec
    episode: Episode
    problem: Problem
    domain: Domain
    goal_positions: Mapping[str, tuple[float, float, float]] = field(default_factory=dict)
    goal_objects: Mapping[str, str] = field(default_factory=dict)

    @property
    def receptacles(self) -> dict[str, str]:
        """Articulated receptacle handle -> planner kind."""
        return {r.handle: r.kind for r in self.episode.receptacles}

    def planner_facts(self, observed: Iterable[Iterable[str]]) -> frozenset[Fact]:
        """Translate simulator fact tuples into planner facts (see the module docstring).

        Raises:
            GroundingError: for a predicate the translation does not know, naming the accepted ones.
        """
        return frozenset(f for t in observed for f in self._translate(tuple(t)))

    def observed_state(self, observed: Iterable[Iterable[str]]) -> State:
        """The planner state for simulator facts, derived and static facts added.

        Raises:
            GroundingError: unknown simulator predicate.
            ProblemError: unknown object, or contradictory facts (named).
        """
        return observed_state(self.problem, self.domain, self.planner_facts(observed))

    def observe(self, backend: SimBackend) -> State:
        """The planner state of a live backend (its facts read now)."""
        return self.observed_state(sim_facts(backend))

    def problem_from(self, backend: SimBackend) -> Problem:
        """The problem to plan from the backend's current state (same goal)."""
        return self.problem.with_init(self.observe(backend))

    def skill_call(self, action: GroundAction) -> GroundedCall:
        """The skill task and target that execute ``action``.

        Raises:
            GroundingError: for an action whose skill has no task in ``skills.registry.TASKS``.
        """
        call = planner_skill_call(action)
        task = PLANNER_SKILL_TASKS.get(call.skill)
        if task is None or task not in TASKS:
            raise GroundingError(
                f"action {action}: planner skill {call.skill!r} has no skill task; "
                f"mapped: {PLANNER_SKILL_TASKS}, registered: {sorted(TASKS)}"
            )
        kind = self._kind(call.target)
        where = call.goal if call.goal is not None else (call.target if kind == "goal" else None)
        pos = self.goal_positions.get(where) if where is not None else None
        return GroundedCall(task, call.target, kind, call.goal, pos, action)

    def _kind(self, handle: str) -> str:
        typ = self.problem.objects[handle]
        if self.domain.is_subtype(typ, "receptacle"):
            return "receptacle"
        return {"movable": "object", "goal": "goal"}.get(typ, typ)

    def _translate(self, atom: tuple[str, ...]) -> tuple[Fact, ...]:
        pred, args = atom[0], atom[1:]
        known = self.problem.objects
        if pred == "not_holding":
            return (fact("hand_empty"),)
        if pred == "in":
            # An open surface is a receptacle to the simulator, not to the planner (on_surface is derived).
            return (fact("in", *args),) if args[1] in self.receptacles else ()
        if pred == "robot_at":
            return (fact("robot_at", *args),) if args[0] in known else ()
        if pred in ("holding", "opened", "closed", "object_at"):
            return (fact(pred, *args),)
        raise GroundingError(
            f"simulator fact {atom}: unknown predicate {pred!r}; accepted: "
            "['closed', 'holding', 'in', 'not_holding', 'object_at', 'opened', 'robot_at']"
        )


def ground_episode(
    spec: EpisodeSpec,
    domain: Domain | str = "rearrange",
    *,
    articulations: Iterable[str] = (),
    final_states: Mapping[str, str] | None = None,
    th: Thresholds = SIM_THRESHOLDS,
) -> Grounding:
    """The planner's episode and problem for a simulator episode spec.

    Args:
        spec: the simulator episode.
        domain: a planner domain or the name of a built-in one.
        articulations: articulated receptacles of the scene beyond those the spec sets (e.g.
            ``backend.rules().articulations``); unset ones start closed, as the simulator resets them.
        final_states: receptacle -> ``"opened"``/``"closed"`` required at the end.
        th: the simulator's thresholds, for the spec's initial opened/closed states.

    Raises:
        GroundingError: a target whose object is not in the spec, or an articulation of unknown kind.
    """
    domain = builtin_domain(domain) if isinstance(domain, str) else domain
    joints = {**dict.fromkeys(articulations, 0.0), **spec.articulation_dict}
    receptacles = _receptacles(joints, spec, th)
    episode = Episode(
        objects=_objects(spec, receptacles),
        goals=tuple(
            GoalSpec(goal_name(t.handle), t.goal_receptacle if t.goal_receptacle in receptacles else None)
            for t in spec.targets
        ),
        receptacles=tuple(receptacles.values()),
        final_states=tuple((final_states or {}).items()),
        name=spec.episode_id or "episode",
    )
    problem = problem_from_episode(episode)
    half_open = {
        fact("closed", h) for h, v in joints.items() if not is_opened(h, v, th) and not is_closed(v, th)
    }
    problem = problem.with_init(_held_at_start(problem.init - half_open, spec.held))
    return Grounding(
        spec,
        episode,
        problem,
        domain,
        {goal_name(t.handle): t.goal for t in spec.targets},
        {goal_name(t.handle): t.handle for t in spec.targets},
    )


def _held_at_start(init: State, held: str | None) -> State:
    """The spec's ``held`` object is in hand, not where it was placed."""
    if held is None:
        return init
    placed = {f for f in init if f.predicate in ("in", "on_surface") and f.args[0] == held}
    return (init - placed - {fact("hand_empty")}) | {fact("holding", held)}


def _receptacles(joints: Mapping[str, float], spec: EpisodeSpec, th: Thresholds) -> dict[str, ReceptacleSpec]:
    out = {}
    for name, value in sorted(joints.items()):
        kind = receptacle_kind(name)
        if kind is None:
            raise GroundingError(
                f"episode {spec.episode_id!r}.articulations: {name!r} is no known receptacle kind; "
                f"accepted prefixes: {[p for p, _ in _KIND_PREFIXES]}"
            )
        out[name] = ReceptacleSpec(name, kind, opened=is_opened(name, value, th))
    return out


def _objects(spec: EpisodeSpec, receptacles: Mapping[str, ReceptacleSpec]) -> tuple[ObjectSpec, ...]:
    handles = {o.handle for o in spec.objects}
    for i, t in enumerate(spec.targets):
        if t.handle not in handles:
            raise GroundingError(
                f"episode.targets[{i}].handle: no object {t.handle!r}; objects: {sorted(handles)}"
            )
    goals = {t.handle: goal_name(t.handle) for t in spec.targets}
    return tuple(
        ObjectSpec(o.handle, o.receptacle if o.receptacle in receptacles else None, goals.get(o.handle))
        for o in spec.objects
    )
