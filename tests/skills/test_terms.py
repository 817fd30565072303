"""Each reward term and termination fires in a constructed situation, with the expected value."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from skills.config import SkillConfig
from skills.registry import make_env
from skills.spawn import sample_base
from skills.terms import ForceRule
from tpsrl.sim.episode import RobotStart


def _act(env, **parts: float) -> np.ndarray:  # noqa: ANN001
    a = np.zeros(env.action_space.shape, np.float32)
    for k, v in parts.items():
        a[env._slices[k]] = v
    if "rearrange_stop" in env._slices and "rearrange_stop" not in parts:
        a[env._slices["rearrange_stop"]] = -1.0
    return a


def _episode(env, seed: int = 0, **changes):  # noqa: ANN001, ANN202
    spec = env.task.episodes.sample(env.backend, np.random.default_rng(seed))
    return replace(spec, **changes)


def test_force_rule_counts_new_force_once_and_ends_on_limits() -> None:
    rule = ForceRule(SkillConfig(max_accum_force=250.0, max_instant_force=1000.0))
    assert rule.step(100.0) == (100.0, False)
    assert rule.step(100.0) == (0.0, False)  # steady contact counts once
    assert rule.step(110.0) == (0.0, False)  # +10 N <= min_force 20
    assert rule.step(50.0)[0] == 0.0 and rule.step(200.0) == (150.0, False)
    assert rule.step(260.0) == (60.0, True)  # accumulated 310 > 250
    assert ForceRule(SkillConfig()).step(2e4)[1]  # instant > 1e4
    assert rule.penalty_raw(1e6) * 1e-4 == pytest.approx(0.01)  # HAB's cap


def test_force_rule_reads_the_peak_or_the_sum_as_configured() -> None:
    class Arm:
        arm_force, arm_force_peak = 300.0, 120.0  # two links pressing: 120 + 180 N

    assert SkillConfig().force_measure == "peak"  # HAB's RobotForce: the largest contact point's force
    assert ForceRule(SkillConfig()).read(Arm()) == 120.0
    assert ForceRule(SkillConfig(force_measure="sum")).read(Arm()) == 300.0
    with pytest.raises(
        ValueError, match=r"skill\.force_measure: 'max' not accepted; use one of \['peak', 'sum'\]"
    ):
        SkillConfig(force_measure="max")


def test_pick_success_grasp_wrong_grasp_and_drop() -> None:
    env = make_env("pick", seed=0)
    spec = _episode(env)
    target, other = spec.targets[0].handle, "clutter0"
    env.reset(options={"episode": replace(spec, held=target)})  # holding, arm at rest: success
    _, r, term, _, info = env.step(_act(env, grip_action=1.0))
    assert term and info["episode_stats"]["success"] == 1.0 and info["reward_terms"]["success"] == 10.0
    assert info["reward_terms"]["slack"] == pytest.approx(-0.005)
    env.reset(options={"episode": replace(spec, held=target)})
    _, _, term, _, info = env.step(_act(env, grip_action=-1.0, arm_action=-1.0))
    assert term and info["reward_terms"]["drop"] == -0.5 and info["episode_stats"]["fail/drop"] == 1.0
    env.reset(options={"episode": spec})
    env.backend._grasp(target)  # privileged: the cup grasps the target this step
    _, _, _, _, info = env.step(_act(env, grip_action=1.0))
    assert info["reward_terms"]["grasp"] == 2.0
    if any(o.handle == other for o in spec.objects):
        env.reset(options={"episode": replace(spec, held=other)})
        _, _, term, _, info = env.step(_act(env, grip_action=1.0))
        assert term and info["reward_terms"]["wrong_grasp"] == -0.5
        assert info["episode_stats"]["fail/wrong_grasp"] == 1.0


def test_pick_force_limit_ends_the_episode() -> None:
    env = make_env("pick", seed=0, max_instant_force=100.0)
    spec = _episode(env)
    wall = replace(
        spec, layout=0, robot=RobotStart(0.6, 4.0, math.pi), objects=spec.objects[:1], targets=spec.targets
    )
    wall = replace(wall, objects=(replace(spec.objects[0], pos=(2.0, 4.0, 0.05)),), articulations=())
    env.reset(options={"episode": wall})
    for _ in range(30):
        _, _, term, _, info = env.step(_act(env, base_velocity=np.array([0.5, 0.0])))
        if term:
            break
    assert term and info["reward_terms"]["force_limit"] == -1.0 and info["episode_stats"]["fail/force"] == 1.0


def test_place_release_at_goal_and_away_from_it() -> None:
    env = make_env("place", seed=0)
    spec = _episode(env)
    env.reset(options={"episode": spec})
    _, _, term, _, info = env.step(_act(env, grip_action=-1.0))
    assert term and info["reward_terms"]["drop"] == -0.5 and info["episode_stats"]["fail/release_away"] == 1.0
    env.reset(options={"episode": spec})
    env.task.goal = env.backend.object_pos(spec.targets[0].handle)  # the goal is where the object is held
    _, _, _, _, info = env.step(_act(env, grip_action=-1.0))
    assert info["reward_terms"]["place"] == 5.0


def test_place_release_too_fast_is_a_throw() -> None:
    env = make_env("place", seed=0)
    spec = _episode(env)
    env.reset(options={"episode": spec})
    held = env.backend.object_pos(spec.targets[0].handle)
    env.task.goal = held  # at the goal, but it moved 0.1 m in the last step (3 m/s)
    env.task.last_pos = held + np.array([0.1, 0.0, 0.0])
    _, _, term, _, info = env.step(_act(env, grip_action=-1.0))
    assert term and info["reward_terms"]["drop"] == -0.5 and info["episode_stats"]["fail/thrown"] == 1.0
    assert "place" not in info["reward_terms"] or info["reward_terms"]["place"] == 0.0
    env = make_env("place", seed=0, release_speed=0.0)  # HAB's rule: no limit
    env.reset(options={"episode": spec})
    env.task.goal = held
    env.task.last_pos = held + np.array([0.1, 0.0, 0.0])
    _, _, _, _, info = env.step(_act(env, grip_action=-1.0))
    assert info["reward_terms"]["place"] == 5.0


def _release_in_the_air(goal_tol: float, **config: float):  # noqa: ANN202
    """Place released at rest in mid-air, its goal where it was held: it falls (1 m) to the floor."""
    env = make_env("place", seed=0, goal_tol=goal_tol, **config)
    spec = _episode(env)
    env.reset(options={"episode": spec})
    env.task.goal = env.backend.object_pos(spec.targets[0].handle)
    steps = []
    for _ in range(60):
        _, _, term, _, info = env.step(_act(env, grip_action=-1.0))
        steps.append(
            (info.get("episode_stats", {}), float(env.backend.object_pos(spec.targets[0].handle)[2]))
        )
        if term:
            break
    return steps


def test_place_success_needs_the_object_at_rest() -> None:
    hab = _release_in_the_air(0.15, settle_speed=0.0)
    assert len(hab) == 1 and hab[0][0]["success"] == 1.0  # HAB's rule: placed while still falling
    falling = _release_in_the_air(0.15)
    stats, _ = falling[-1]
    assert len(falling) > 1 and stats["success"] == 0.0 and stats["fail/moved_off"] == 1.0
    landed = _release_in_the_air(2.0)  # the whole fall is within tolerance: success once it rests
    stats, z = landed[-1]
    assert stats["success"] == 1.0 and len(landed) > 10 and z < 0.3


def test_place_ends_when_the_released_object_rests_off_its_goal() -> None:
    # Released at its goal, it falls about 1 m and rests there: outside goal_tol 0.6, inside 2 x goal_tol.
    rested = _release_in_the_air(0.6, settled_away=True)
    stats, z = rested[-1]
    assert stats["fail/settled_away"] == 1.0 and stats["success"] == 0.0 and z < 0.3
    assert stats["return/place"] == 0.0 and stats["return/drop"] == -0.5  # the place reward taken back
    legacy = _release_in_the_air(0.6)  # off by default: runs on, no failure, no success
    assert not legacy[-1][0] and legacy[-1][1] < 0.3


def test_pick_arm_out_penalty_applies_only_far_from_the_object() -> None:
    def arm_out(**config: float) -> list[float]:
        env = make_env("pick", seed=0, arm_out_penalty=0.05, **config)
        env.reset(options={"episode": _episode(env)})
        out = []
        for _ in range(30):  # the arm swings out of its rest pose (beyond rest_tol after 20 steps)
            _, _, term, _, info = env.step(_act(env, arm_action=1.0, grip_action=-1.0))
            out.append(info["reward_terms"].get("arm_out", 0.0))
            if term:
                break
        return out

    far = arm_out(arm_out_dist=0.0)  # the base is always farther than 0 m from the object
    assert far[0] == 0.0 and min(far) < 0.0  # at rest first, then a penalty once the EE is out
    assert set(arm_out(arm_out_dist=100.0)) == {0.0}
    with pytest.raises(ValueError, match="skill.arm_out_penalty"):
        make_env("pick", arm_out_penalty=-1.0)


def test_open_drawer_right_and_wrong_handle() -> None:
    env = make_env("open_drawer", seed=0)
    spec = _episode(env)
    env.reset(options={"episode": spec})
    env.backend._grasp(spec.marker)
    _, _, term, _, info = env.step(_act(env, grip_action=1.0))
    assert not term and info["reward_terms"]["grasp_handle"] == 5.0
    env.reset(options={"episode": spec})
    env.backend._grasp("fridge")
    _, _, term, _, info = env.step(_act(env, grip_action=1.0))
    assert (
        term
        and info["reward_terms"]["wrong_handle"] == -5.0
        and info["episode_stats"]["fail/wrong_handle"] == 1.0
    )


def test_open_drawer_release_after_the_target_is_paid_once() -> None:
    env = make_env("open_drawer", seed=0, release_reward=5.0)
    spec = _episode(env)
    env.reset(options={"episode": replace(spec, articulations=((spec.marker, 0.5),))})  # already open
    env.backend._grasp(spec.marker)
    _, _, _, _, info = env.step(_act(env, grip_action=1.0))
    assert info["reward_terms"]["at_target"] == 5.0 and "release" not in info["reward_terms"]
    _, _, _, _, info = env.step(_act(env, grip_action=-1.0))
    assert env.backend.held is None and info["reward_terms"]["release"] == 5.0
    env.backend._grasp(spec.marker)
    env.step(_act(env, grip_action=1.0))
    _, _, _, _, info = env.step(_act(env, grip_action=-1.0))
    assert "release" not in info["reward_terms"]
    env.reset(options={"episode": spec})  # closed: letting go before the target pays nothing
    env.backend._grasp(spec.marker)
    env.step(_act(env, grip_action=1.0))
    _, _, _, _, info = env.step(_act(env, grip_action=-1.0))
    assert env.backend.held is None and "release" not in info["reward_terms"]
    assert make_env("open_drawer", seed=0).task.reward_scales["release"] == 0.0  # HAB: no such term


def test_close_drawer_joint_progress_and_success_on_stop() -> None:
    env = make_env("close_drawer", seed=0)
    spec = _episode(env)
    env.reset(options={"episode": replace(spec, articulations=((spec.marker, 0.0),))})  # already closed
    _, _, term, _, info = env.step(_act(env, rearrange_stop=1.0))
    assert term and info["episode_stats"]["success"] == 1.0 and info["reward_terms"]["success"] == 10.0
    assert info["reward_terms"]["at_target"] == 5.0 and "grip_action" not in env._slices
    env.reset(options={"episode": spec})
    _, _, term, _, info = env.step(_act(env, rearrange_stop=1.0))
    assert term and info["episode_stats"]["fail/stop"] == 1.0


def test_nav_success_needs_distance_heading_and_stop() -> None:
    env = make_env("nav_to_obj", seed=0, hold_prob=0.0)
    spec = _episode(env)
    goal = np.array([*spec.nav_goal, 0.0])
    x, y, yaw = sample_base(
        np.random.default_rng(0), spec.layout, goal, min_dist=0.0, max_dist=1.3, yaw_noise=0.0, base_noise=0.0
    )
    env.reset(options={"episode": replace(spec, robot=RobotStart(x, y, yaw))})
    _, _, term, _, info = env.step(_act(env))
    assert not term and abs(info["reward_terms"]["dist"]) < 0.01
    _, _, term, _, info = env.step(_act(env, rearrange_stop=1.0))
    assert term and info["episode_stats"]["success"] == 1.0
    env.reset(options={"episode": spec})  # >= 3 m away: stop is a failure
    _, _, term, _, info = env.step(_act(env, rearrange_stop=1.0))
    assert term and info["episode_stats"]["success"] == 0.0 and info["nav_dist"] >= 3.0


def test_detour_counts_the_fridge_sides_and_its_open_door() -> None:
    from skills.terms import Detour
    from tpsrl.sim.mujoco.layout import make_layout

    layout = 0
    fridge = next(f for f in make_layout(layout).furniture if f.kind == "fridge")
    inside = np.array([*fridge.to_world(-0.07, -0.06), 1.0])  # a shelf inside the fridge
    detour = Detour()

    def from_(lx: float, ly: float, door: float) -> float:
        detour.reset(layout, {"fridge": door}, inside)
        d = detour(fridge.to_world(lx, ly))
        assert d is not None
        return d

    assert from_(1.3, 0.0, 1.8) < 0.1  # in front, door open: the straight way
    beside_shut = from_(0.0, 1.3, 0.0)  # on the door's side: the arm cannot reach through the side
    beside_open = from_(0.0, 1.3, 1.8)  # and the open door stands between it and the front
    assert 0.3 < beside_shut and beside_shut + 1.0 < beside_open


def test_pick_detour_reward_measures_the_ee_distance_plus_the_detour() -> None:
    env = make_env("pick", seed=0, detour_reward=True, spawn_max_dist=4.0)
    task, b = env.task, env.backend
    for seed in range(50):  # an episode whose way bends
        env.reset(options={"episode": _episode(env, seed)})
        if (task.detour(b.base_pose[:2]) or 0.0) > 0.3:
            break
    assert task.detour(b.base_pose[:2]) > 0.3

    def measure() -> float:
        return float(np.linalg.norm(b.ee_pos_world - b.object_pos(task.target))) + task.detour(
            b.base_pose[:2]
        )

    before = measure()
    paid = []
    for _ in range(10):
        _, _, term, _, info = env.step(_act(env, base_velocity=np.array([1.0, 0.3]), grip_action=-1.0))
        now = measure()
        paid.append((info["reward_terms"]["dist"], before - now))
        before = now
        if term:
            break
    assert paid[0][0] == 0.0  # the first step after reset pays nothing (Progress)
    scale = task.config.dist_reward  # the info's terms are scaled
    assert all(got == pytest.approx(scale * want, abs=1e-9) for got, want in paid[1:])
    assert any(abs(got) > 1e-3 for got, _ in paid)


def test_place_detour_reward_measures_the_object_distance_plus_the_detour() -> None:
    env = make_env("place", seed=0, detour_reward=True)
    task, b = env.task, env.backend
    for seed in range(80):  # an episode whose way to the goal bends (a wall or furniture between)
        env.reset(options={"episode": _episode(env, seed)})
        if (task.detour(b.base_pose[:2]) or 0.0) > 0.3:
            break
    assert task.detour(b.base_pose[:2]) > 0.3

    def measures() -> tuple[float, float]:
        dist = float(np.linalg.norm(b.object_pos(task.target) - task.goal))
        return dist + task.detour(b.base_pose[:2]), dist

    before = measures()
    paid = []
    for _ in range(10):
        _, _, term, _, info = env.step(_act(env, base_velocity=np.array([1.0, 0.3]), grip_action=1.0))
        now = measures()
        paid.append((info["reward_terms"]["dist"], before[0] - now[0], before[1] - now[1]))
        before = now
        if term:
            break
    assert b.held == task.target  # still carried: every step was paid by the held object's measure
    assert paid[0][0] == 0.0  # the first step after reset pays nothing (Progress)
    scale = task.config.dist_reward  # the info's terms are scaled
    assert all(got == pytest.approx(scale * want, abs=1e-9) for got, want, _ in paid[1:])
    # the detour moved: HAB's straight line alone would have paid otherwise
    assert any(abs(got - scale * straight) > 1e-3 for got, _, straight in paid[1:])
