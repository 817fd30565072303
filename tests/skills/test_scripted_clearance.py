"""Scripted skills keep the arm clear of tall surfaces and fit the HAB chain's step limits (issue 10).

Geometry (`skills.scripted.clearance`) on a real layout, the straight back-out before a turn on a fake
robot, and nav followed by pick on live episodes: nav stops where the resting arm is outside the
surface, and pick from there finishes within HAB's 200-step skill limit.
"""

from __future__ import annotations

import math
from types import SimpleNamespace

import numpy as np
import pytest

from skills.registry import make_env
from skills.scripted import make_scripted
from skills.scripted.clearance import arm_over_tall, on_tall, stands
from skills.scripted.control import RETREAT_SPEED, retreat
from skills.scripted.doorpath import grid_without
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.sim import BASE_LIN_SPEED

LAYOUT = 3
SKILL_STEPS = 200  # hab-reference "Skill execution": a skill call's step limit


def _counter() -> L.Furniture:
    return L.make_layout(LAYOUT).get("kitchen_counter")


def _front(f: L.Furniture, out: float, lateral: float = 0.0) -> tuple[float, float]:
    """A point `out` metres in front of the furniture's front edge (negative: on it)."""
    return f.to_world(f.spec.depth / 2 + out, lateral)


def test_arm_over_tall_sees_the_counter_ahead_only() -> None:
    f = _counter()
    x, y = _front(f, 0.45)
    toward = f.yaw + math.pi  # facing the counter
    assert arm_over_tall(LAYOUT, (x, y, toward))
    assert not arm_over_tall(LAYOUT, (x, y, f.yaw))  # facing away
    fx, fy = _front(f, 1.0)
    assert not arm_over_tall(LAYOUT, (fx, fy, toward))  # far enough back


def test_stands_come_in_straight_and_the_far_one_keeps_the_arm_outside() -> None:
    f = _counter()
    point = np.array([*_front(f, -0.15), 1.0])  # 15 cm in from the counter's front edge
    assert on_tall(LAYOUT, point[:2])
    grid = grid_without(LAYOUT, [])
    st = stands(LAYOUT, grid, np.array(_front(f, 1.5)), point)
    assert st is not None
    d_close = float(np.linalg.norm(st.close - point[:2]))
    d_far = float(np.linalg.norm(st.far - point[:2]))
    assert d_close < 0.7 < d_far < 1.4  # the close stand is a short reach; the far one within nav's 1.5 m
    u_close, u_far = (st.close - point[:2]) / d_close, (st.far - point[:2]) / d_far
    assert float(u_close @ u_far) > 0.99  # on one line through the point: the last approach is straight

    def facing(xy: np.ndarray) -> tuple[float, float, float]:
        return (float(xy[0]), float(xy[1]), math.atan2(point[1] - xy[1], point[0] - xy[0]))

    assert not arm_over_tall(LAYOUT, facing(st.far)) and arm_over_tall(LAYOUT, facing(st.close))


class _FakeBase:
    """A base that integrates the linear command along its heading (no physics); the arm at rest."""

    def __init__(self, pose: tuple[float, float, float]) -> None:
        self.base_pose = pose
        self.spec = SimpleNamespace(layout=LAYOUT, objects=())
        self.held = None

    def world_to_base(self, p: np.ndarray) -> np.ndarray:
        x, y, yaw = self.base_pose
        c, s = math.cos(yaw), math.sin(yaw)
        dx, dy = p[0] - x, p[1] - y
        return np.array([c * dx + s * dy, -s * dx + c * dy, p[2]])

    def cup(self) -> np.ndarray:
        x, y, yaw = self.base_pose
        return np.array([x + 0.5 * math.cos(yaw), y + 0.5 * math.sin(yaw), 1.0])


def test_retreat_backs_straight_out_until_the_arm_is_clear() -> None:
    f = _counter()
    b = _FakeBase((*_front(f, 0.45), f.yaw + math.pi))
    r = SimpleNamespace(b=b, has_base=True, flat=lambda arm, base: base, cup_pos=b.cup)
    commands = []
    for base in retreat(r, arm=lambda: None):
        commands.append(base)
        x, y, yaw = b.base_pose
        step = float(base[0]) * BASE_LIN_SPEED / 30.0
        b.base_pose = (x + step * math.cos(yaw), y + step * math.sin(yaw), yaw)
    assert commands and all(np.allclose(c, [-RETREAT_SPEED, 0.0]) for c in commands)  # never turns
    assert not arm_over_tall(LAYOUT, b.base_pose)


def _tall_surface_seeds(env, n: int) -> list[int]:  # noqa: ANN001
    seeds = []
    for seed in range(40):
        env.reset(seed=seed)
        b = env.backend
        if on_tall(b.spec.layout, b.object_pos(b.spec.targets[0].handle)[:2]):
            seeds.append(seed)
        if len(seeds) == n:
            return seeds
    pytest.fail("no pick episodes with the object on a tall surface")


def _run(env, policy, limit: int) -> int:  # noqa: ANN001
    """Steps until the policy is done (or `limit`)."""
    obs = env.observation_space.sample()
    policy.reset(env)
    for t in range(1, limit + 1):
        obs, *_ = env.step(policy.act(obs, env))
        if policy.done():
            return t
    return limit + 1


def test_nav_stops_clear_of_the_surface_and_pick_from_there_fits_the_skill_limit() -> None:
    env = make_env("pick", split="heldout", max_steps=2000)
    nav, pick = make_scripted("nav_to_obj"), make_scripted("pick")
    for seed in _tall_surface_seeds(env, 3):
        env.reset(seed=seed)
        b = env.backend
        handle = b.spec.targets[0].handle
        assert _run(env, nav, 300) <= 300
        assert not arm_over_tall(b.spec.layout, b.base_pose), seed  # nav turned and stopped clear
        steps = _run(env, pick, SKILL_STEPS)
        assert steps <= SKILL_STEPS and b.held == handle, (seed, steps)
