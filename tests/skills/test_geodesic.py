"""The geodesic distance behind nav's dense reward, and runs that predate it."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
import torch

from skills.learned import load_skill_policy
from skills.policy import ActionLayout
from skills.registry import make_env
from skills.train import resume_meta, skill_meta
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.geodesic import FIELD_RES, GeodesicDistance, coarse_free, distance_field


def _room_with_wall() -> np.ndarray:
    free = np.ones((40, 40), dtype=bool)  # 4 x 4 m
    free[19:21, :30] = False  # a wall at x = 2 m from y = 0 to 3 m: the gap is at the top
    return free


def test_open_floor_is_close_to_the_straight_line() -> None:
    free = np.ones((40, 40), dtype=bool)
    field = distance_field(free, np.array([0.55, 0.55]))
    for i, j in [(39, 5), (30, 30), (5, 39), (20, 10)]:
        straight = math.hypot((i + 0.5) * FIELD_RES - 0.55, (j + 0.5) * FIELD_RES - 0.55)
        assert straight <= field[i, j] + 1e-9 <= straight * 1.09  # 8-neighbour steps: at most 8.2% longer


def test_a_wall_makes_the_path_go_round_it() -> None:
    field = distance_field(_room_with_wall(), np.array([1.0, 0.5]))
    behind = field[30, 5]  # (3.05, 0.55): 2 m away in a straight line, through the wall
    assert behind > 2 * 2.5 - 0.1  # up to the gap at y = 3 m and back down: about 5 m
    assert field[19, 0] == math.inf  # the wall itself


def test_the_waypoint_leads_round_the_wall() -> None:
    g = GeodesicDistance()
    g.reset_free(_room_with_wall(), np.array([3.0, 0.5]))  # behind the wall, which ends at y = 3 m
    w = g.waypoint((1.0, 0.5))
    assert w[1] > 0.9 and abs(w[0] - 1.0) < 0.3  # up along the wall, not at the goal through it
    assert np.hypot(*(w - (1.0, 0.5))) <= 0.5 + 1e-9
    w = g.waypoint((1.5, 3.5))
    assert w[0] > 1.8  # at the gap's height: across
    assert np.allclose(g.waypoint((2.9, 0.5)), g.waypoint((2.9, 0.5), radius=0.5))
    assert g.waypoint((50.0, 50.0)) is None


def test_path_compass_reads_the_geodesic_distance_and_the_waypoint() -> None:
    env = make_env("nav_to_obj", path_compass=True, split="heldout")
    b = env.unwrapped.backend
    for seed in range(3):
        obs, _ = env.reset(seed=seed)
        geo = GeodesicDistance()
        geo.reset(b.spec.layout, env.unwrapped.task.goal)
        x, y, yaw = b.base_pose
        dist, angle = obs["goal_path_compass"]
        assert dist == pytest.approx(geo((x, y)), abs=1e-4)
        wx, wy = geo.waypoint((x, y))
        want = math.atan2(wy - y, wx - x) - yaw
        assert math.cos(-angle - want) > 0.9999  # the gps-compass sign: -angle, as HAB's
    env.close()


def test_path_compass_leads_place_to_its_goal_and_pick_to_its_object() -> None:
    for skill in ("place", "pick"):
        env = make_env(skill, path_compass=True, split="heldout")
        b = env.unwrapped.backend
        for seed in range(3):
            obs, _ = env.reset(seed=seed)
            target = b.spec.targets[0]
            assert (b.held == target.handle) == (skill == "place")
            to = np.asarray(target.goal if skill == "place" else b.object_pos(target.handle))[:2]
            geo = GeodesicDistance()
            geo.reset(b.spec.layout, to)
            dist = obs["goal_path_compass"][0]
            assert dist == pytest.approx(geo(b.base_pose[:2]), abs=1e-4)
            if skill == "place":  # the held object is at the gripper: the goal is metres away
                assert dist > 0.3
        env.close()


def test_unreachable_cells_are_infinite() -> None:
    free = _room_with_wall()
    free[19:21, :] = False  # close the gap
    field = distance_field(free, np.array([1.0, 0.5]))
    assert math.isfinite(field[5, 5]) and np.isinf(field[30:, :]).all()


def test_layout_distance_is_never_below_the_straight_line() -> None:
    rng = np.random.default_rng(0)
    free = L.free_space(3)
    ii, jj = np.nonzero(free)
    g = GeodesicDistance()
    for k in range(5):
        goal = np.array([(ii[k * 500] + 0.5) * L.GRID_RES, (jj[k * 500] + 0.5) * L.GRID_RES])
        g.reset(3, goal)
        for m in rng.choice(len(ii), 20):
            xy = np.array([(ii[m] + 0.5) * L.GRID_RES, (jj[m] + 0.5) * L.GRID_RES])
            d = g(xy)
            assert d is not None and d >= np.hypot(*(xy - goal)) - FIELD_RES
    assert g(np.array([50.0, 50.0])) is None  # far off the floor: no free cell near it
    assert coarse_free(3).any()


def test_nav_pays_for_a_detour_that_the_straight_line_does_not() -> None:
    geo = make_env("nav_to_obj", seed=0, hold_prob=0.0)
    flat = make_env("nav_to_obj", seed=0, hold_prob=0.0, geodesic=False)
    gains = {}
    for name, env in (("geo", geo), ("flat", flat)):
        env.reset(seed=3)
        total = 0.0
        for _ in range(40):  # drive straight ahead, whatever the goal
            a = np.zeros(env.action_space.shape, np.float32)
            a[ActionLayout.of(env).slices["base_velocity"]] = (1.0, 0.0)
            a[ActionLayout.of(env).slices["rearrange_stop"]] = -1.0
            _, _, term, trunc, info = env.step(a)
            total += info["reward_terms"]["dist"]
            assert info["nav_geo_dist"] >= info["nav_dist"] - FIELD_RES if name == "geo" else True
        gains[name] = total
    assert gains["geo"] != pytest.approx(gains["flat"], abs=1e-6)


def test_runs_from_before_the_field_load_and_resume_as_planar(tmp_path: Path) -> None:
    meta = skill_meta({"name": "nav_to_obj"})
    old = {
        "skill": "nav_to_obj",
        "skill_config": {k: v for k, v in meta["skill_config"].items() if k != "geodesic"},
    }
    run = tmp_path / "run"
    (run / "checkpoints").mkdir(parents=True)
    shipped = torch.load("skills/checkpoints/nav_to_obj.pt", weights_only=False)
    torch.save({**shipped, "meta": old}, run / "checkpoints" / "latest.pt")
    assert load_skill_policy(run / "checkpoints" / "latest.pt").config.geodesic is False
    planar = skill_meta({"name": "nav_to_obj", "geodesic": False})
    assert resume_meta(planar, run) == old  # resumes, recording what it began with
    assert resume_meta(meta, run) == meta  # today's default differs: the engine refuses it
    assert resume_meta(meta, tmp_path / "new") == meta


class _Base:
    """A backend stand-in: nav's step reads only the base pose."""

    def __init__(self, x: float, y: float, yaw: float) -> None:
        self.base_pose = (x, y, yaw)


@pytest.mark.parametrize("success_geodesic", [False, True])
def test_a_stop_across_a_wall_succeeds_only_on_the_planar_distance(success_geodesic: bool) -> None:
    from skills.nav import NavConfig, NavToObjTask

    task = NavToObjTask(NavConfig(success_geodesic=success_geodesic))
    task.goal = np.array([3.0, 0.5])  # behind the wall (x = 2 m) that ends at y = 3 m
    task.geo.reset_free(_room_with_wall(), task.goal)
    task.dist.reset()
    task.angle.reset()
    stop = {"rearrange_stop": np.array([1.0]), "base_velocity": np.zeros(2)}
    across = task.step(_Base(1.7, 0.5, 0.0), stop)  # 1.3 m away in a straight line, ~5 m on foot
    assert across.success is not success_geodesic
    near = task.step(_Base(2.4, 0.5, 0.0), stop)  # on the goal's side of the wall, 0.6 m away
    assert near.success


def test_seeds_replace_the_snap_point_and_count_the_straight_line_from_them() -> None:
    goal = np.array([3.0, 0.5])  # behind the wall at x = 2 m, which ends at y = 3 m
    ii, jj = np.meshgrid(np.arange(40), np.arange(40), indexing="ij")
    r = np.hypot((ii + 0.5) * FIELD_RES - goal[0], (jj + 0.5) * FIELD_RES - goal[1])
    near = r <= 1.5
    far_side = distance_field(_room_with_wall(), goal, near & (ii >= 21))
    both = distance_field(_room_with_wall(), goal, near)
    assert both[17, 5] == pytest.approx(r[17, 5])  # (1.75, 0.55): a seed, reached across the wall
    assert far_side[17, 5] > 2 * 2.5 - 0.1  # not a seed: round the wall's end
    assert np.allclose(far_side[near & (ii >= 21)], r[near & (ii >= 21)])
    no_seed = distance_field(_room_with_wall(), goal, np.zeros((40, 40), dtype=bool))
    assert np.array_equal(no_seed, distance_field(_room_with_wall(), goal))  # none: the snap point
