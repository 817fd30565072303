"""A valid episode and ways to break it, shared by the table-driven test and the fuzz test."""

from __future__ import annotations

import copy
import functools
from typing import Any

import numpy as np

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.backend import MujocoBackend


@functools.lru_cache(maxsize=1)
def backend() -> MujocoBackend:
    return MujocoBackend(DepthSettings(mode="none"))


@functools.lru_cache(maxsize=1)
def _base() -> dict[str, Any]:
    return backend().sample_episode(np.random.default_rng(0), layout=0, n_clutter=2).to_dict()


def base_episode() -> dict[str, Any]:
    """Layout 0, robot in free space, 3 objects (obj0 the target, clutter0, clutter1), one target."""
    return copy.deepcopy(_base())


def with_(path: str, value: Any) -> dict[str, Any]:
    """`base_episode()` with the dotted `path` (list indices as numbers) set to `value`."""
    d = base_episode()
    node: Any = d
    *parents, last = [int(p) if p.isdigit() else p for p in path.split(".")]
    for p in parents:
        node = node[p]
    node[last] = value
    return d


def _counter() -> L.Furniture:
    return L.make_layout(0).get("kitchen_counter")


def _robot_xy() -> tuple[float, float]:
    r = _base()["robot"]
    return r["x"], r["y"]


# (name, episode, text every error must contain)
BAD_EPISODES: list[tuple[str, Any, list[str]]] = [
    ("robot yaw 1e12", lambda: with_("robot.yaw", 1e12), ["robot.yaw", "1000000000000.0", "|yaw| <="]),
    ("robot yaw nan", lambda: with_("robot.yaw", float("nan")), ["robot.yaw", "finite"]),
    ("robot x inf", lambda: with_("robot.x", float("inf")), ["robot.x", "finite"]),
    ("robot x string", lambda: with_("robot.x", "1.0"), ["robot.x", "finite number"]),
    ("robot outside", lambda: with_("robot.x", 30.0), ["robot", "outside the apartment"]),
    ("robot in a wall", lambda: with_("robot", {"x": 0.05, "y": 4.0, "yaw": 0.0}), ["the robot", "wall"]),
    (
        "robot in furniture",
        lambda: with_("robot", {"x": _counter().x, "y": _counter().y}),
        ["the robot", "kitchen_counter"],
    ),
    ("robot arm 3 joints", lambda: with_("robot.arm", [0.0, 0.0, 0.0]), ["robot.arm", "7 numbers"]),
    (
        "robot arm out of range",
        lambda: with_("robot.arm", [0.0, 9.0, 0.0, 0.0, 0.0, 0.0, 0.0]),
        ["robot.arm[1]", "joint range"],
    ),
    ("robot missing", lambda: {k: v for k, v in base_episode().items() if k != "robot"}, ["robot"]),
    ("object in a wall", lambda: with_("objects.0.pos", [0.0, 4.0, 0.5]), ["objects[0] 'obj0'", "wall"]),
    (
        "object in furniture",
        lambda: with_("objects.0.pos", [_counter().x, _counter().y, 0.4]),
        ["objects[0] 'obj0'", "kitchen_counter"],
    ),
    (
        "object on the robot",
        lambda: with_("objects.0.pos", [*_robot_xy(), 1.6]),
        ["objects[0]", "on the robot"],
    ),
    (
        "two objects at one spot",
        lambda: with_("objects.1.pos", _base()["objects"][0]["pos"]),
        ["objects[0] 'obj0'", "objects[1] 'clutter0'"],
    ),
    ("object yaw 1e12", lambda: with_("objects.0.yaw", 1e12), ["objects[0].yaw", "|yaw| <="]),
    ("object pos 2 numbers", lambda: with_("objects.0.pos", [1.0, 2.0]), ["objects[0].pos", "3 numbers"]),
    ("object outside", lambda: with_("objects.0.pos", [1.0, 2.0, -3.0]), ["objects[0].pos", "outside"]),
    ("object type unknown", lambda: with_("objects.0.type", "unicorn"), ["objects[0].type", "accepted"]),
    (
        "object handle duplicate",
        lambda: with_("objects.1.handle", "obj0"),
        ["objects[1].handle", "duplicate"],
    ),
    ("objects not a list", lambda: with_("objects", "obj0"), ["objects", "list"]),
    (
        "goal 1e6 m",
        lambda: with_("targets.0.goal", [1e6, 1e6, 1e6]),
        ["targets[0].goal", "outside the apartment"],
    ),
    ("goal of no object", lambda: with_("targets.0.handle", "ghost"), ["targets[0].handle", "ghost"]),
    ("nav goal 1e6 m", lambda: with_("nav_goal", [1e6, 0.0]), ["nav_goal", "outside the apartment"]),
    ("seed abc", lambda: with_("seed", "abc"), ["seed", "'abc'", "integer"]),
    ("seed 1.7", lambda: with_("seed", 1.7), ["seed", "1.7", "integer"]),
    ("seed -1", lambda: with_("seed", -1), ["seed", "-1", "integer"]),
    ("seed true", lambda: with_("seed", True), ["seed", "True", "integer"]),
    ("episode_id a dict", lambda: with_("episode_id", {"a": 1}), ["episode_id", "string"]),
    ("layout 99", lambda: with_("layout", 99), ["layout", "99", "0..31"]),
    ("layout string", lambda: with_("layout", "0"), ["layout", "integer"]),
    ("held unknown", lambda: with_("held", "ghost"), ["held", "ghost"]),
    ("articulation unknown", lambda: with_("articulations", {"door": 1.0}), ["articulations", "door"]),
    (
        "articulation out of range",
        lambda: with_("articulations", {"fridge": 9.0}),
        ["articulations.fridge", "9.0"],
    ),
    ("marker unknown", lambda: with_("marker", "door"), ["marker", "door"]),
    ("unknown field", lambda: with_("colour", "red"), ["colour", "unknown field"]),
    ("not a mapping", lambda: [1, 2, 3], ["expected a mapping"]),
]
