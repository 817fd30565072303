"""Checks of an episode's initial state once it is loaded into MuJoCo: nothing starts inside something
else (robot or object in a wall or furniture, two objects at one spot, an object on the robot), and
MuJoCo accepted the state (it silently resets the data on huge or non-finite values, with a warning).

Pure functions of a model and its data after `mj_forward`; they raise `EpisodeSpecError` (`PlacementError`
for overlaps, which `RearrangeEnv.reset` answers by sampling again) naming the object and what it
collides with.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from ..episode import EpisodeSpec, EpisodeSpecError, PlacementError
from .robot import GROUP_ROBOT

ROBOT_OVERLAP_TOL = 0.04
"""Deepest overlap of the robot accepted at reset (m); sampled episodes start with none."""
OBJECT_OVERLAP_TOL = 0.015
"""Deepest overlap of an object accepted at reset (m): resting contacts are ~0, objects are 3-15 cm."""
ROBOT_FOOTPRINT = 0.25
"""Radius (m) around the base centre in which no free object may start (it would rest on the robot)."""
BAD_STATE_WARNINGS = tuple(
    int(w)
    for w in (
        mujoco.mjtWarning.mjWARN_BADQPOS,
        mujoco.mjtWarning.mjWARN_BADQVEL,
        mujoco.mjtWarning.mjWARN_BADQACC,
        mujoco.mjtWarning.mjWARN_BADCTRL,
    )
)
"""MuJoCo warnings that come with a reset of the data (`Nan, Inf or huge value in QACC`, ...)."""


def bad_state_count(d: mujoco.MjData) -> int:
    """How many times MuJoCo has flagged a non-finite or huge state and reset the data."""
    return sum(d.warning[w].number for w in BAD_STATE_WARNINGS)


def _label(m: mujoco.MjModel, g: int, objects: dict[str, int]) -> str:
    name = m.geom(g).name
    if name.startswith("obj:") and name[4:] in objects:
        return f"objects[{objects[name[4:]]}] {name[4:]!r}"
    if m.geom_group[g] == GROUP_ROBOT:
        return "the robot"
    body = m.body(m.geom_bodyid[g]).name
    return f"wall {name!r}" if body == "walls" else f"{body or 'world'} ({name or 'geom ' + str(g)})"


def check_initial_state(
    m: mujoco.MjModel, d: mujoco.MjData, spec: EpisodeSpec, source: str = "episode"
) -> None:
    """Raises `EpisodeSpecError` if MuJoCo rejected the state or two bodies start overlapping."""
    if bad_state_count(d):
        raise EpisodeSpecError(
            f"{source}: MuJoCo rejected the initial state (a huge or non-finite pose); robot {spec.robot}"
        )
    objects = {o.handle: i for i, o in enumerate(spec.objects)}
    held = f"obj:{spec.held}" if spec.held is not None else None
    for c in d.contact[: d.ncon]:
        if c.dist >= -OBJECT_OVERLAP_TOL:
            continue
        names = (m.geom(c.geom1).name, m.geom(c.geom2).name)
        if held in names:
            continue
        a, b = (_label(m, g, objects) for g in (c.geom1, c.geom2))
        tol = ROBOT_OVERLAP_TOL if "the robot" in (a, b) else OBJECT_OVERLAP_TOL
        if a == b == "the robot" or c.dist >= -tol:
            continue
        first, second = (a, b) if a.startswith(("the robot", "objects")) else (b, a)
        raise PlacementError(
            f"{source}: {first} starts inside {second} ({-c.dist:.3f} m deep at "
            f"({c.pos[0]:.2f}, {c.pos[1]:.2f}, {c.pos[2]:.2f})); accepted: poses in free space "
            f"(overlap <= {tol} m)"
        )
    _check_on_robot(spec, source)


def _check_on_robot(spec: EpisodeSpec, source: str) -> None:
    x, y = spec.robot.x, spec.robot.y
    for i, o in enumerate(spec.objects):
        if o.handle != spec.held and math.hypot(o.pos[0] - x, o.pos[1] - y) < ROBOT_FOOTPRINT:
            raise PlacementError(
                f"{source}.objects[{i}].pos: {o.handle!r} at {tuple(np.round(o.pos, 3))} is on the robot "
                f"(within {ROBOT_FOOTPRINT} m of its base at ({x}, {y})); accepted: away from the robot, or "
                f"held: {o.handle!r}"
            )
