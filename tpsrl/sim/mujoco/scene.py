"""Build the MJCF of a furnished apartment with the Fetch robot and a set of movable objects.

`compile_model(layout_index, objects)` compiles a fresh `mujoco.MjModel` (what a simulator loads and
edits); `build_model` is the same cached per (layout, objects), read-only, for callers that only look.
Articulated parts (fridge door, drawers) and every object get a suction weld (`grasp:<name>`), inactive
until a grasp switches it on.
"""

from __future__ import annotations

import functools
import math

import mujoco

from .layout import (
    DRAWER_HEIGHTS,
    FRIDGE_SHELF_Z,
    NUM_DRAWERS,
    WALL_HEIGHT,
    WALLS,
    Furniture,
    make_layout,
)
from .objects import object_type
from .robot import CT_FOOTPRINT, CT_HELD, CT_OBJECT, CT_ROBOT, CT_WORLD, robot_parts

CT_FLOOR = 16
TIMESTEP = 1.0 / 120.0
FRIDGE_OPEN_MAX = 2.2  # rad (HAB close-fridge starts up to 2pi/3 = 2.09)
DRAWER_OPEN_MAX = 0.5  # m
# Geom groups: 0 architecture (walls, floor; ray-cast analytically), 1 furniture and objects, 2 robot,
# 3 footprints (invisible, never ray-cast).
_WORLD = f'contype="{CT_WORLD}" conaffinity="{CT_ROBOT | CT_OBJECT}" group="1"'
_ARCH = f'contype="{CT_WORLD}" conaffinity="{CT_ROBOT | CT_OBJECT}" group="0"'
# A table's footprint as the base sees it: HAB's base moves on a navmesh that excludes furniture
# footprints, so it never drives under a table top. Ours is a dynamic body that fits under one and
# wedged there (1 kN contacts of the torso against the top). This box stops the base geom alone
# (contype CT_FOOTPRINT, which only the base's conaffinity has): the arm still reaches over and under
# the edge, objects and depth rays pass through it, and it is not drawn.
_FOOTPRINT = f'contype="{CT_FOOTPRINT}" conaffinity="0" group="3"'
FOOTPRINT_HEIGHT = 0.4  # m, above the base's top (0.36 m)
# Objects' contacts resist rolling (condim 6: sliding, torsional and rolling friction). With sliding
# friction alone (condim 3) a sphere or a capsule on its side, nudged at 0.3 m/s, rolled 1 m in 5 s and on:
# fruit left near an edge or released slightly tilted rolled off its surface with nothing touching it
# (2 of the 4 targets that fell to the floor in 12 traced Tidy House episodes). Rolling friction 0.003 m
# (0.08-0.17 of the fruits' radii) stops that nudge within 0.15 m.
OBJECT_FRICTION = (1.0, 0.01, 0.003)  # sliding, torsional (m), rolling (m)
OBJECT_CONDIM = 6


def _f(*v: float) -> str:
    return " ".join(f"{x:.5g}" for x in v)


def _box(name: str, pos: tuple[float, ...], half: tuple[float, ...], rgba: str, extra: str = _WORLD) -> str:
    return f'<geom name="{name}" type="box" pos="{_f(*pos)}" size="{_f(*half)}" rgba="{rgba}" {extra}/>'


def _fridge(f: Furniture) -> str:
    k = f.spec
    d, w, h, t = k.depth, k.width, k.height, 0.04
    c = "0.92 0.92 0.95 1"
    g = [
        _box("fridge_back", (-d / 2 + t / 2, 0, h / 2), (t / 2, w / 2, h / 2), c),
        _box("fridge_left", (0, w / 2 - t / 2, h / 2), (d / 2, t / 2, h / 2), c),
        _box("fridge_right", (0, -w / 2 + t / 2, h / 2), (d / 2, t / 2, h / 2), c),
        _box("fridge_bottom", (0, 0, 0.05), (d / 2, w / 2, 0.05), c),
        _box("fridge_top", (0, 0, h - t / 2), (d / 2, w / 2, t / 2), c),
        _box(
            "fridge_shelf", (-0.03, 0, FRIDGE_SHELF_Z), (d / 2 - t - 0.03, w / 2 - t, 0.01), "0.8 0.9 0.95 1"
        ),
    ]
    door = (
        f'<body name="fridge_door" pos="{_f(d / 2, w / 2, 0)}">'
        f'<joint name="fridge" type="hinge" axis="0 0 1" range="0 {FRIDGE_OPEN_MAX}" damping="10" frictionloss="1" armature="0.5"/>'
        f'<inertial pos="0.025 {-w / 2} {h / 2}" mass="12" diaginertia="3.3 3.3 0.7"/>'
        + _box("fridge_door_panel", (0.025, -w / 2, h / 2), (0.025, w / 2, h / 2), c)
        + _box("fridge_handle_standoff", (0.07, -w + 0.07, 1.0), (0.02, 0.01, 0.01), "0.3 0.3 0.3 1")
        + _box("fridge_handle", (0.1, -w + 0.07, 1.0), (0.015, 0.015, 0.15), "0.3 0.3 0.3 1")
        + f'<site name="fridge_handle" pos="0.1 {-w + 0.07} 1.0" size="0.02"/>'
        "</body>"
    )
    return "".join(g) + door


def _cabinet(f: Furniture) -> str:
    k = f.spec
    d, w, h, t = k.depth, k.width, k.height, 0.03
    c = "0.55 0.38 0.25 1"
    g = [
        _box(f"{f.name}_back", (-d / 2 + t / 2, 0, h / 2), (t / 2, w / 2, h / 2), c),
        _box(f"{f.name}_left", (0, w / 2 - t / 2, h / 2), (d / 2, t / 2, h / 2), c),
        _box(f"{f.name}_right", (0, -w / 2 + t / 2, h / 2), (d / 2, t / 2, h / 2), c),
        _box(f"{f.name}_top", (0, 0, h - t / 2), (d / 2, w / 2, t / 2), "0.85 0.85 0.8 1"),
        _box(f"{f.name}_plinth", (0, 0, 0.05), (d / 2, w / 2, 0.05), c),
    ]
    dd, dw, dh = d - 0.06, w - 2 * t - 0.01, 0.18
    for i, zb in enumerate(DRAWER_HEIGHTS[:NUM_DRAWERS]):
        n = f"drawer_{i}"
        dc = "0.7 0.5 0.33 1"
        g.append(
            f'<body name="{n}_body" pos="{_f(0, 0, zb)}">'
            f'<joint name="{n}" type="slide" axis="1 0 0" range="0 {DRAWER_OPEN_MAX}" damping="10" frictionloss="1" armature="0.1"/>'
            f'<inertial pos="0 0 0.05" mass="2" diaginertia="0.05 0.05 0.05"/>'
            + _box(f"{n}_bottom", (0, 0, 0.01), (dd / 2, dw / 2, 0.01), dc)
            + _box(f"{n}_front", (d / 2 - 0.01, 0, dh / 2 + 0.02), (0.01, w / 2 - 0.005, dh / 2 + 0.02), dc)
            + _box(f"{n}_rear", (-dd / 2 + 0.01, 0, dh / 2), (0.01, dw / 2, dh / 2), dc)
            + _box(f"{n}_side_l", (0, dw / 2 - 0.01, dh / 2), (dd / 2, 0.01, dh / 2), dc)
            + _box(f"{n}_side_r", (0, -dw / 2 + 0.01, dh / 2), (dd / 2, 0.01, dh / 2), dc)
            + _box(f"{n}_handle_standoff", (d / 2 + 0.02, 0, 0.12), (0.02, 0.01, 0.01), "0.3 0.3 0.3 1")
            + _box(f"{n}_handle", (d / 2 + 0.05, 0, 0.12), (0.015, 0.1, 0.015), "0.3 0.3 0.3 1")
            + f'<site name="{n}_handle" pos="{_f(d / 2 + 0.05, 0, 0.12)}" size="0.02"/>'
            "</body>"
        )
    return "".join(g)


def _table(f: Furniture, rgba: str) -> str:
    k = f.spec
    d, w, h = k.depth, k.width, k.height
    g = [
        _box(f"{f.name}_top", (0, 0, h - 0.025), (d / 2, w / 2, 0.025), rgba),
        _box(
            f"{f.name}_footprint",
            (0, 0, FOOTPRINT_HEIGHT / 2),
            (d / 2, w / 2, FOOTPRINT_HEIGHT / 2),
            "0 0 0 0",
            _FOOTPRINT,
        ),
    ]
    for i, (sx, sy) in enumerate([(1, 1), (1, -1), (-1, 1), (-1, -1)]):
        g.append(
            _box(
                f"{f.name}_leg{i}",
                (sx * (d / 2 - 0.05), sy * (w / 2 - 0.05), (h - 0.05) / 2),
                (0.025, 0.025, (h - 0.05) / 2),
                rgba,
            )
        )
    return "".join(g)


def _sofa(f: Furniture) -> str:
    k = f.spec
    d, w, h = k.depth, k.width, k.height
    c = "0.3 0.35 0.5 1"
    return "".join(
        [
            _box(f"{f.name}_seat", (0.1, 0, h / 2), (d / 2 - 0.1, w / 2 - 0.15, h / 2), c),
            _box(f"{f.name}_back", (-d / 2 + 0.1, 0, 0.4), (0.1, w / 2, 0.4), c),
            _box(f"{f.name}_arm_l", (0.05, w / 2 - 0.075, 0.3), (d / 2 - 0.05, 0.075, 0.3), c),
            _box(f"{f.name}_arm_r", (0.05, -w / 2 + 0.075, 0.3), (d / 2 - 0.05, 0.075, 0.3), c),
        ]
    )


_BLOCK_COLOURS = {"counter": "0.85 0.85 0.8 1", "tv_stand": "0.25 0.25 0.28 1", "shelf": "0.6 0.45 0.3 1"}


def _furniture(f: Furniture) -> str:
    k = f.spec
    if f.kind == "fridge":
        inner = _fridge(f)
    elif f.kind == "cabinet":
        inner = _cabinet(f)
    elif f.kind in ("dining_table", "coffee_table", "side_table"):
        inner = _table(f, "0.65 0.5 0.35 1")
    elif f.kind == "sofa":
        inner = _sofa(f)
    else:
        inner = _box(
            f"{f.name}_block",
            (0, 0, k.height / 2),
            (k.depth / 2, k.width / 2, k.height / 2),
            _BLOCK_COLOURS[f.kind],
        )
    return f'<body name="{f.name}" pos="{_f(f.x, f.y, 0)}" euler="0 0 {f.yaw:.6f}">{inner}</body>'


def _object(handle: str, type_name: str) -> str:
    t = object_type(type_name)
    size = _f(*t.size)
    orient = ' euler="1.5708 0 0"' if t.shape == "capsule" else ""  # capsules lie on their side
    extra = f'contype="{CT_OBJECT}" conaffinity="{CT_WORLD | CT_ROBOT | CT_OBJECT | CT_HELD | CT_FLOOR}" group="1" condim="{OBJECT_CONDIM}"'
    rgba = _f(*t.rgba)
    return (
        f'<body name="obj:{handle}" pos="0 0 -5"><freejoint name="obj:{handle}"/>'
        f'<geom name="obj:{handle}" type="{t.shape}" size="{size}" mass="{t.mass}" rgba="{rgba}"{orient} {extra}'
        f' friction="{_f(*OBJECT_FRICTION)}"/></body>'
    )


def scene_xml(layout_index: int, objects: tuple[tuple[str, str], ...]) -> str:
    """The MJCF text of layout `layout_index` with `objects` as (handle, type) pairs."""
    layout = make_layout(layout_index)
    r = robot_parts()
    walls = "".join(
        _box(
            f"wall{i}",
            ((w.x0 + w.x1) / 2, (w.y0 + w.y1) / 2, WALL_HEIGHT / 2),
            ((w.x1 - w.x0) / 2, (w.y1 - w.y0) / 2, WALL_HEIGHT / 2),
            "0.9 0.88 0.82 1",
            _ARCH,
        )
        for i, w in enumerate(WALLS)
    )
    furniture = "".join(_furniture(f) for f in layout.furniture)
    objs = "".join(_object(h, t) for h, t in objects)
    grasp_targets = (
        [f"obj:{h}" for h, _ in objects] + ["fridge_door"] + [f"drawer_{i}_body" for i in range(NUM_DRAWERS)]
    )
    welds = "".join(
        f'<weld name="grasp:{b}" body1="robot0:gripper_link" body2="{b}" active="false" solref="0.02 1"/>'
        for b in grasp_targets
    )
    tilt = 0.85  # chase camera close behind and above the robot, looking down so walls rarely hide it
    return f"""<mujoco model="tpsrl_apartment_{layout_index}">
<compiler angle="radian" autolimits="true"/>
<option timestep="{TIMESTEP:.10f}" integrator="implicitfast" cone="pyramidal"><flag sleep="enable"/></option>
<visual><global offwidth="1280" offheight="960"/><map znear="0.01" zfar="60"/><quality shadowsize="0"/>
<headlight ambient="0.35 0.35 0.35" diffuse="0.6 0.6 0.6"/></visual>
<asset>{r["assets"]}
<texture name="grid" type="2d" builtin="checker" rgb1="0.72 0.64 0.52" rgb2="0.68 0.6 0.48" width="64" height="64"/>
<material name="floor" texture="grid" texrepeat="20 16"/></asset>
<default>{r["defaults"]}</default>
<worldbody>
<light pos="5 4 6" dir="0 0 -1" directional="false" diffuse="0.5 0.5 0.5" castshadow="false"/>
<geom name="floor" type="plane" pos="5 4 0" size="5.2 4.2 0.1" material="floor" contype="{CT_FLOOR}" conaffinity="{CT_OBJECT | CT_HELD}" group="0"/>
<camera name="overview" pos="5 4 13.5" xyaxes="1 0 0 0 1 0" fovy="42"/>
<body name="walls">{walls}</body>
{furniture}
{r["body"].replace('<geom mesh="robot0:base_link"', f'<camera name="third_person" pos="-1.0 0 2.3" xyaxes="0 -1 0 {math.sin(tilt):.4f} 0 {math.cos(tilt):.4f}" fovy="65"/><geom mesh="robot0:base_link"', 1)}
{objs}
</worldbody>
<contact>{r["contacts"]}</contact>
<equality>{welds}</equality>
<actuator>{r["actuators"]}</actuator>
</mujoco>"""


def compile_model(layout_index: int, objects: tuple[tuple[str, str], ...]) -> mujoco.MjModel:
    """A freshly compiled model of a layout with objects (the caller's own: grasping edits it). About 10
    ms; the simulator compiles one per episode, as skill episodes rarely repeat a scene (a cache of 16
    scenes had no hit in 150 resets of any skill task, and copying its models cost 4 ms a reset)."""
    return mujoco.MjModel.from_xml_string(scene_xml(layout_index, objects))


@functools.lru_cache(maxsize=16)
def build_model(layout_index: int, objects: tuple[tuple[str, str], ...]) -> mujoco.MjModel:
    """`compile_model`, cached: read-only (copy before editing)."""
    return compile_model(layout_index, objects)
