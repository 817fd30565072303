"""Scripted skills leave the scene as the rest of a HAB plan needs it (issue 10, tp_spa).

A placed sphere stays where it was released (released moving, it rolls on until it drops off its
surface), paths keep the arm clear of the open fridge door, a base next to the open door backs straight
out before it turns, and nav to a point inside the fridge stops in front of its opening.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from skills.evaluate import EVAL_SEED
from skills.registry import make_env
from skills.scripted import make_scripted
from skills.scripted.control import PASS_CLEARANCE, back_off_parts, door_path, part_dist
from skills.scripted.doorpath import CLEARANCE, open_parts
from skills.scripted.nav import REACHED, nav_stand
from skills.scripted.pick import CONTAINER_STAND
from tpsrl.sim.episode import ObjectPlacement, Target
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.objects import object_type

SPHERE_EPISODE = EVAL_SEED + 3  # a held-out place episode whose object is an orange
FRIDGE_LAYOUT, FRIDGE_OPEN = 27, 1.68
BESIDE_FRIDGE = (
    1.43,
    0.74,
)  # free floor beside the fridge's side wall, the open door between it and the front


def test_placed_sphere_does_not_roll_away() -> None:
    env = make_env("place", split="heldout")
    env.reset(seed=SPHERE_EPISODE)
    b = env.backend
    h = b.spec.targets[0].handle
    assert object_type(next(o.type for o in b.spec.objects if o.handle == h)).shape == "sphere"
    policy = make_scripted("place")
    policy.reset(env)
    obs, done, steps = None, False, 0
    while not done and steps < 200:
        obs, _, term, trunc, _ = env.step(policy.act(obs, env))
        steps, done = steps + 1, term or trunc or policy.done()
    assert b.held is None
    placed = b.object_pos(h).copy()
    for _ in range(150):  # 5 s idle: before the fix the orange rolled on at ~1.4 cm/s
        b.step(np.zeros(7), -1.0, np.zeros(2))
    assert float(np.linalg.norm((b.object_pos(h) - placed)[:2])) < 0.01


def _fake_robot(xy: tuple[float, float], spec: SimpleNamespace) -> SimpleNamespace:
    state = dict(spec.articulations)
    backend = SimpleNamespace(base_pose=(*xy, 0.0), spec=spec, articulation=lambda n: state.get(n, 0.0))
    return SimpleNamespace(b=backend)


def _fridge(layout: int) -> L.Furniture:
    return next(f for f in L.make_layout(layout).furniture if f.kind == "fridge")


def _seg_dist(p: np.ndarray, a: np.ndarray, b: np.ndarray) -> float:
    t = float(np.clip(np.dot(p - a, b - a) / float(np.dot(b - a, b - a)), 0.0, 1.0))
    return float(np.linalg.norm(p - (a + t * (b - a))))


def test_path_past_the_open_fridge_door_keeps_the_arm_off_it() -> None:
    spec = SimpleNamespace(layout=FRIDGE_LAYOUT, articulations=(("fridge", FRIDGE_OPEN),))
    r = _fake_robot(BESIDE_FRIDGE, spec)
    f = _fridge(FRIDGE_LAYOUT)
    stand = np.array(f.to_world(f.spec.depth / 2 + CONTAINER_STAND, 0.0))
    path = np.array(door_path(r, stand, (0.0, 0.15)))
    ((a, b),) = open_parts(FRIDGE_LAYOUT, {"fridge": FRIDGE_OPEN})
    gaps = [_seg_dist(p, a, b) for p in path]
    assert float(np.linalg.norm(path[-1] - stand)) < 0.25  # it still gets in front of the opening
    # around the door at the passing clearance; only the last stretch in front of the opening is closer
    far = [g for p, g in zip(path, gaps, strict=True) if float(np.linalg.norm(p - stand)) > 0.6]
    assert far and min(far) > PASS_CLEARANCE - 0.1 > CLEARANCE


def test_nav_to_a_point_in_the_fridge_stops_in_front_of_its_opening() -> None:
    f = _fridge(FRIDGE_LAYOUT)
    goal = np.array([*f.to_world(0.1, 0.1), 0.95])  # a shelf point inside
    spec = SimpleNamespace(
        layout=FRIDGE_LAYOUT,
        articulations=(("fridge", FRIDGE_OPEN),),
        nav_goal=(float(goal[0]), float(goal[1])),
        objects=(ObjectPlacement("obj0", "apple", (1.5, 7.5, 0.94), 0.0, "kitchen_counter"),),
        targets=(Target("obj0", tuple(goal), "fridge"),),
    )
    stand = nav_stand(_fake_robot(BESIDE_FRIDGE, spec), goal)
    assert stand is not None
    out = np.array([np.cos(f.yaw), np.sin(f.yaw)])
    front = np.array(f.to_world(f.spec.depth / 2, 0.0))
    assert abs(float(np.dot(stand - front, out)) - CONTAINER_STAND) < 1e-6  # square to the opening
    assert float(np.linalg.norm(stand - goal[:2])) < REACHED


class _Kinematic:
    """A robot stand-in whose base follows the commanded velocity (HAB scale 2.5 m/s, 30 Hz)."""

    def __init__(self, xy: np.ndarray, yaw: float, spec: SimpleNamespace) -> None:
        state = dict(spec.articulations)
        self.b = SimpleNamespace(base_pose=(*xy, yaw), spec=spec, articulation=lambda n: state.get(n, 0.0))
        self.commands: list[np.ndarray] = []

    def flat(self, arm: np.ndarray, base: np.ndarray) -> np.ndarray:
        x, y, yaw = self.b.base_pose
        d = float(base[0]) * 2.5 / 30
        self.b.base_pose = (x + d * np.cos(yaw), y + d * np.sin(yaw), yaw)
        self.commands.append(base)
        return base


def test_a_base_at_the_open_fridge_backs_straight_out_before_turning_away() -> None:
    spec = SimpleNamespace(layout=FRIDGE_LAYOUT, articulations=(("fridge", FRIDGE_OPEN),))
    f = _fridge(FRIDGE_LAYOUT)
    stand = np.array(f.to_world(f.spec.depth / 2 + CONTAINER_STAND, 0.0))  # where open_fridge leaves it
    facing = _Kinematic(stand, f.yaw + np.pi, spec)  # facing the fridge, as after opening it
    assert part_dist(facing) < PASS_CLEARANCE  # a turn here sweeps the arm over the door
    list(back_off_parts(facing, lambda: np.zeros(7)))
    assert facing.commands and all(c[0] < 0 and c[1] == 0 for c in facing.commands)  # straight back
    assert part_dist(facing) >= PASS_CLEARANCE
    away = _Kinematic(stand, f.yaw, spec)  # facing away: reversing would drive into the fridge
    list(back_off_parts(away, lambda: np.zeros(7)))
    assert len(away.commands) <= 1 and part_dist(away) < PASS_CLEARANCE
    clear = _Kinematic(stand, f.yaw + np.pi, SimpleNamespace(layout=FRIDGE_LAYOUT, articulations=()))
    assert not list(back_off_parts(clear, lambda: np.zeros(7)))  # nothing open: no back-off
