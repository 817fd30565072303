"""Grounding end to end: a live MuJoCo episode's facts are accepted by the planner, and its plans are valid
and map to registered skills; closed and half-open doors; the vocabulary translation on its own."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator

import numpy as np
import pytest

from evaluation.grounding import (
    PLANNER_SKILL_TASKS,
    Grounding,
    GroundingError,
    ground_episode,
    receptacle_kind,
    sim_facts,
)
from planner.facts import NoPlan, Plan, fact, simulate
from planner.problem import InconsistentStateError
from planner.search import plan
from planner.skills import SKILL_NAMES
from skills.registry import TASKS
from tpsrl.sim.episode import EpisodeSpec
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.symbolic import goal_name

LAYOUT = 3  # a held-out layout (skills.splits.HELDOUT_LAYOUTS)


@pytest.fixture(scope="module")
def backend() -> Iterator[MujocoBackend]:
    sim = MujocoBackend(depth={"mode": "none"})
    yield sim
    sim.close()


@pytest.fixture(scope="module")
def spec(backend: MujocoBackend) -> EpisodeSpec:
    """Three targets: one in the open fridge, one in the open top drawer, one on the counter; clutter."""
    return backend.sample_episode(
        np.random.default_rng(0),
        layout=LAYOUT,
        n_targets=3,
        n_clutter=3,
        target_receptacles=("fridge", "drawer_0", "kitchen_counter"),
        articulations={"fridge": 1.8, "drawer_0": 0.45},
    )


def _settle(backend: MujocoBackend, spec: EpisodeSpec, steps: int = 5) -> None:
    backend.reset(spec)
    for _ in range(steps):
        backend.step()


def _ground(backend: MujocoBackend, spec: EpisodeSpec, domain: str = "rearrange") -> Grounding:
    return ground_episode(spec, domain, articulations=backend.rules().articulations)


def _check_plan(grounding: Grounding, backend: MujocoBackend) -> Plan:
    problem = grounding.problem_from(backend)
    result = plan(problem, grounding.domain)
    assert isinstance(result, Plan), str(result)
    assert problem.goal <= simulate(problem.init, result.actions)
    handles = (
        {o.handle for o in grounding.spec.objects}
        | set(grounding.goal_positions)
        | set(grounding.receptacles)
    )
    for action in result.actions:
        call = grounding.skill_call(action)
        assert call.skill in TASKS
        assert call.target in handles
        if call.skill == "place":
            assert call.goal_pos == grounding.goal_positions[call.goal]
            assert grounding.goal_objects[call.goal] == call.target
    return result


def test_every_planner_skill_maps_to_a_registered_task() -> None:
    assert set(PLANNER_SKILL_TASKS) == set(SKILL_NAMES)
    assert set(PLANNER_SKILL_TASKS.values()) <= set(TASKS)


def test_spec_becomes_a_planner_problem(backend: MujocoBackend, spec: EpisodeSpec) -> None:
    grounding = _ground(backend, spec)
    starts = {o.handle: o.receptacle for o in spec.objects}
    assert {starts["obj0"], starts["obj1"], starts["obj2"]} == {"fridge", "drawer_0", "kitchen_counter"}
    assert grounding.receptacles == {"fridge": "fridge", "drawer_0": "drawer", "drawer_1": "drawer"}
    assert grounding.problem.goal == {fact("object_at", t.handle, goal_name(t.handle)) for t in spec.targets}
    assert (
        fact("opened", "fridge") in grounding.problem.init
        and fact("closed", "drawer_1") in grounding.problem.init
    )
    for o in spec.objects:
        assert grounding.problem.objects[o.handle] == "movable"
        where = (
            fact("in", o.handle, o.receptacle)
            if o.receptacle in grounding.receptacles
            else fact("on_surface", o.handle)
        )
        assert where in grounding.problem.init


@pytest.mark.parametrize("domain", ["rearrange", "rearrange_nonav"])
def test_live_facts_give_a_valid_plan_of_registered_skills(
    backend: MujocoBackend, spec: EpisodeSpec, domain: str
) -> None:
    _settle(backend, spec)
    raw = sim_facts(backend)
    assert ("not_holding",) in raw and ("opened", "fridge") in raw
    assert any(f[0] == "in" and receptacle_kind(f[2]) is None for f in raw)  # on an open surface
    grounding = _ground(backend, spec, domain)
    state = grounding.observe(backend)
    assert fact("hand_empty") in state
    fridge_obj = next(o.handle for o in spec.objects[:3] if o.receptacle == "fridge")
    assert fact("in", fridge_obj, "fridge") in state
    assert not any(f.predicate == "in" and f.args[1] not in grounding.receptacles for f in state)
    result = _check_plan(grounding, backend)
    picks = [a for a in result.actions if a.name in ("pick", "pick_from")]
    assert sorted(a.args[0] for a in picks) == ["obj0", "obj1", "obj2"]
    assert not any(a.name.startswith("open") for a in result.actions)  # both containers start open
    skills = {grounding.skill_call(a).skill for a in result.actions}
    assert ("nav_to_obj" in skills) == (domain == "rearrange")


def test_closed_fridge_is_opened_first(backend: MujocoBackend, spec: EpisodeSpec) -> None:
    closed = dataclasses.replace(spec, articulations=(("drawer_0", 0.45), ("fridge", 0.0)))
    _settle(backend, closed)
    assert ("closed", "fridge") in sim_facts(backend)
    grounding = _ground(backend, closed)
    result = _check_plan(grounding, backend)
    names = [a.name for a in result.actions]
    assert names.index("open_fridge") < names.index("pick_from")
    opening = result.actions[names.index("open_fridge")]
    call = grounding.skill_call(opening)
    assert (call.skill, call.target, call.target_kind) == ("open_fridge", "fridge", "receptacle")


def test_half_open_fridge_gives_a_clear_message(backend: MujocoBackend, spec: EpisodeSpec) -> None:
    half = dataclasses.replace(spec, articulations=(("drawer_0", 0.45), ("fridge", 0.6)))
    _settle(backend, half)
    raw = sim_facts(backend)
    assert ("opened", "fridge") not in raw and ("closed", "fridge") not in raw
    grounding = _ground(backend, half)
    assert fact("closed", "fridge") not in grounding.problem.init  # the spec alone says so too
    result = plan(grounding.problem_from(backend), grounding.domain)
    assert isinstance(result, NoPlan) and result.half_open == ("fridge",)
    assert "fridge is half open (neither opened nor closed)" in result.reason
    assert "running open_fridge (to make it opened) would make the goal reachable" in result.reason


def test_translation_of_simulator_facts(backend: MujocoBackend, spec: EpisodeSpec) -> None:
    grounding = _ground(backend, spec)
    assert grounding.planner_facts([("not_holding",), ("in", "clutter0", "sofa"), ("robot_at", "sofa")]) == {
        fact("hand_empty")
    }
    assert grounding.planner_facts([("in", "obj0", "fridge"), ("robot_at", "goal_obj1")]) == {
        fact("in", "obj0", "fridge"),
        fact("robot_at", "goal_obj1"),
    }
    with pytest.raises(GroundingError, match=r"unknown predicate 'touching'; accepted: \['closed'"):
        grounding.planner_facts([("touching", "obj0")])
    with pytest.raises(InconsistentStateError, match=r"\(hand_empty\) and \(holding obj0\)"):
        grounding.observed_state([("holding", "obj0"), ("not_holding",)])


def test_unknown_articulation_kind_is_named(spec: EpisodeSpec) -> None:
    with pytest.raises(GroundingError, match=r"'oven' is no known receptacle kind; accepted prefixes"):
        ground_episode(dataclasses.replace(spec, articulations=(("oven", 0.0),)))


def test_object_held_at_the_start_is_in_hand(spec: EpisodeSpec) -> None:
    grounding = ground_episode(dataclasses.replace(spec, held="obj2"))
    init = grounding.problem.init
    assert fact("holding", "obj2") in init
    assert fact("hand_empty") not in init and fact("on_surface", "obj2") not in init
    result = plan(grounding.problem, grounding.domain)
    assert isinstance(result, Plan) and [a.name for a in result.actions[:2]] == ["nav", "place"]
