"""Scripted skill controllers: interface, registry, action layout, and success on a few episodes."""

from __future__ import annotations

import math
from types import SimpleNamespace

import mujoco
import numpy as np
import pytest

from skills.policy import ActionLayout, SkillPolicy
from skills.registry import make_env
from skills.scripted import SCRIPTED, make_scripted
from skills.scripted.control import Robot
from skills.scripted.doorpath import grid_without, open_parts, plan
from skills.scripted.envs import SKILLS, make_skill_env, rollout
from skills.scripted.posture import REST, base_to_world, nearest_posture, solve_posture
from skills.scripted.steer import point_base_command
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.sim import BASE_ANG_SPEED, BASE_LIN_SPEED


def test_every_skill_has_a_scripted_controller_implementing_the_protocol() -> None:
    assert set(SCRIPTED) == set(SKILLS)
    for name, cls in SCRIPTED.items():
        p = cls()
        assert isinstance(p, SkillPolicy) and p.skill == name


def test_unknown_scripted_skill_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown scripted skill 'fly'.*pick"):
        make_scripted("fly")


def test_action_layout_drops_missing_components() -> None:
    lay = ActionLayout(("arm_action", "grip_action", "rearrange_stop"))
    a = lay.make(arm=np.full(7, 2.0), grip=1.0, base=np.ones(2), stop=True)
    assert a.shape == (9,) and not lay.has_base
    assert np.allclose(a[:7], 1.0) and a[7] == 1.0 and a[8] == 1.0
    with pytest.raises(ValueError, match="unknown.*accepted"):
        ActionLayout(("jump",))


@pytest.mark.parametrize("skill", SKILLS)
def test_scripted_skill_succeeds_on_most_episodes(skill: str) -> None:
    env = make_skill_env(skill)
    outs = [rollout(env, make_scripted(skill), seed=s) for s in range(3)]
    assert sum(o.success for o in outs) >= 2, [(o.layout, o.steps) for o in outs]
    assert all(o.steps <= env.cfg.max_steps for o in outs)


def test_scripted_pick_without_base_emits_arm_and_grip_only() -> None:
    env = make_skill_env("pick", base_movement=False)
    p = make_scripted("pick")
    obs, _ = env.reset(seed=0)
    p.reset(env)
    for _ in range(5):
        a = p.act(obs, env)
        assert env.action_space.contains(a)
        obs, *_ = env.step(a)


def test_scripted_place_acts_through_end_effector_steps() -> None:
    # The shipped place moves its arm by end-effector steps (arm_control='ee'); skills.imitate teaches it
    # by the scripted place, whose joint actions become the nearest end-effector steps.
    left = {}
    for control in ("joint", "ee"):  # the end-effector env last: its action and rollouts are checked
        env = make_env("place", arm_control=control)
        env.reset(seed=0)
        r = Robot(env)
        target = env.backend.ee_pos_world + np.array([0.0, 0.0, 0.05])
        a = r.flat(r.arm_to(target))
        assert a.shape == env.action_space.shape
        for _ in range(10):
            env.step(r.flat(r.arm_to(target)))
        left[control] = float(np.linalg.norm(target - env.backend.ee_pos_world))
    assert a[2] > 0.1 and np.abs(a[:2]).max() < 0.5 * a[2]  # its step is up
    assert left["ee"] < 0.025 and abs(left["ee"] - left["joint"]) < 0.005, left  # as fast as the joints
    outs = [rollout(env, make_scripted("place"), seed=s) for s in range(3)]
    assert sum(o.success for o in outs) >= 2, [(o.layout, o.steps, o.info) for o in outs]


def test_place_crossing_height_takes_a_goal_without_a_receptacle() -> None:
    # The chain grounds place for an object that is no episode target (a held non-target object put down
    # after a replan) with goal_receptacle None; this raised AttributeError and ended a whole evaluation.
    from skills.scripted.place import HOVER, crossing_height

    spec = SimpleNamespace(targets=(SimpleNamespace(goal_receptacle=None),))
    r = SimpleNamespace(b=SimpleNamespace(spec=spec))
    assert crossing_height(r, "obj0", np.array([1.0, 2.0, 0.75])) == pytest.approx(0.75 + HOVER)


def test_act_before_reset_is_an_error() -> None:
    with pytest.raises(RuntimeError, match="before reset"):
        make_scripted("place").act({}, None)


def _robot_at(x: float, y: float, yaw: float) -> SimpleNamespace:
    return SimpleNamespace(b=SimpleNamespace(base_pose=(x, y, yaw)))


def test_point_base_command_moves_a_point_ahead_in_any_direction() -> None:
    r = _robot_at(1.0, 2.0, math.pi / 2)  # facing +y; the point 0.5 m ahead
    point = np.array([1.0, 2.5])
    fwd = point_base_command(r, point, np.array([0.0, 0.2]))  # along the heading: drive only
    assert fwd[0] == pytest.approx(0.2 / BASE_LIN_SPEED) and fwd[1] == pytest.approx(0.0)
    side = point_base_command(r, point, np.array([-0.1, 0.0]))  # to the left: turn only, w = v / 0.5
    assert side[0] == pytest.approx(0.0, abs=1e-9) and side[1] == pytest.approx(0.2 / BASE_ANG_SPEED)
    big = point_base_command(r, point, np.array([30.0, 30.0]))  # scaled as a whole into [-1, 1]
    assert np.abs(big).max() == pytest.approx(1.0)
    assert np.allclose(point_base_command(r, np.array([1.0, 2.0]), np.ones(2)), 0.0)  # the centre itself


def _free(grid: np.ndarray, xy: tuple[float, float]) -> bool:
    return bool(grid[int(xy[0] / L.GRID_RES), int(xy[1] / L.GRID_RES)])


def test_path_planning_sees_the_open_fridge_door() -> None:
    layout = 26
    closed = grid_without(layout, open_parts(layout, {"fridge": 0.0}))
    assert open_parts(layout, {"fridge": 0.0}) == [] and closed is L.free_space(layout)
    parts = open_parts(layout, {"fridge": 1.57, "drawer_0": 0.45})
    assert len(parts) == 2
    grid = grid_without(layout, parts)
    a, b = parts[0]
    mid = tuple((a + b) / 2)
    assert not _free(grid, mid) and grid.sum() < closed.sum()
    path = plan(grid, np.array([5.0, 5.0]), np.array([2.0, 2.0]), (0.0, 0.3))
    assert path and all(_free(grid, p) for p in path)


def test_solved_posture_puts_the_cup_at_its_target() -> None:
    env = make_skill_env("open_drawer")
    env.reset(seed=0)
    r = Robot(env)
    m, d = r.b.model, r.b.data
    target = np.array([0.55, 0.0, 0.7])
    q = solve_posture(m, d, target)
    scratch = mujoco.MjData(m)
    scratch.qpos[:] = d.qpos
    scratch.qpos[r._arm_q] = q
    mujoco.mj_kinematics(m, scratch)
    cup = scratch.geom_xpos[m.geom("suction_cup").id]
    assert np.linalg.norm(cup - base_to_world(m, d, target)) < 0.01
    assert np.allclose(d.qpos[r._arm_q], r.b.data.qpos[r._arm_q])  # the live state is untouched


def test_nearest_posture_reaches_its_point_with_no_larger_joint_change() -> None:
    env = make_env("open_drawer", base_movement=False, spawn_rule="habitat2", split="train")
    env.reset(seed=0)
    r = Robot(env)
    m, d = r.b.model, r.b.data
    live = d.qpos.copy()
    target = r.b.world_to_base(r.b.handle_pos(env.task.marker))  # 0.86-0.89 m ahead, handle height
    for site, tol in ((False, 0.005), (True, 0.005)):
        q = nearest_posture(m, d, target, REST, site=site)
        scratch = mujoco.MjData(m)
        scratch.qpos[:] = d.qpos
        scratch.qpos[r._arm_q] = q
        mujoco.mj_kinematics(m, scratch)
        at = scratch.site_xpos[r._grip_site] if site else scratch.geom_xpos[m.geom("suction_cup").id]
        assert np.linalg.norm(at - base_to_world(m, d, target)) < tol
    q_ik = solve_posture(m, d, target)
    q = nearest_posture(m, d, target, REST)
    assert np.abs(q - REST).max() < np.abs(q_ik - REST).max() - 0.01
    assert np.array_equal(d.qpos, live)  # the live state is untouched
    # Joint rates: a joint at a third of the others' speed is moved less, and the move costs fewer steps
    # at those rates than the plain answer's.
    rates = np.ones(7)
    rates[int(np.abs(q - REST).argmax())] = 1 / 3
    q_slow = nearest_posture(m, d, target, REST, rates=rates)
    scratch.qpos[r._arm_q] = q_slow
    mujoco.mj_kinematics(m, scratch)
    assert np.linalg.norm(scratch.geom_xpos[m.geom("suction_cup").id] - base_to_world(m, d, target)) < 0.005
    assert (np.abs(q_slow - REST) / rates).max() < (np.abs(q - REST) / rates).max() - 0.01


def test_scripted_open_drawer_without_base_opens_releases_and_stops() -> None:
    # Given more than HAB's 200 steps: its pull from Habitat 2.0's spawn takes ~220 (its use is finishing
    # what a learned skill started: skills.imitate).
    env = make_env("open_drawer", base_movement=False, spawn_rule="habitat2", split="train", max_steps=300)
    outs = [rollout(env, make_scripted("open_drawer"), seed=s) for s in range(2)]
    assert all(o.success for o in outs), [(o.layout, o.steps) for o in outs]
