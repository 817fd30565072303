"""The Fetch robot from gymnasium-robotics, adapted for a mobile base and joint-position control.

The model files are read from the installed `gymnasium_robotics` package at run time (never copied).
Changes to the table-top model (see docs/simulator.md):
- the base's x/y/z slides with damping 1e11 become planar x, y slides and a yaw hinge, driven by
  velocity actuators; the base collides frictionlessly (condim 1, priority 1) so it slides along walls;
- the mocap weld is dropped; the 7 arm joints get position actuators bounded by the real Fetch efforts
  and gravity compensation;
- torso lift, head pan/tilt and the finger slides are fixed (suction needs no fingers; the head
  tilts down to see tables); the robot does not collide with itself or with the floor.
"""

from __future__ import annotations

import copy
import functools
import importlib.util
import math
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np

ARM_JOINTS: tuple[str, ...] = (
    "shoulder_pan_joint",
    "shoulder_lift_joint",
    "upperarm_roll_joint",
    "elbow_flex_joint",
    "forearm_roll_joint",
    "wrist_flex_joint",
    "wrist_roll_joint",
)
# Real Fetch joint effort limits (N m), used as actuator force ranges.
ARM_EFFORT = (33.82, 131.76, 76.94, 66.18, 29.35, 25.7, 7.36)
ARM_KP = (600.0, 1200.0, 500.0, 500.0, 200.0, 200.0, 50.0)
BASE_JOINTS = ("base_x", "base_y", "base_yaw")
# The base drive: a velocity term (feed-forward on the command) plus a position servo on a target that
# integrates the command. The position term holds the base still while the arm pushes; the target may
# lead the base by at most BASE_LEAD, which bounds the force when the base is blocked. No actuator
# force limits: MuJoCo's implicit integrator ignores force clamping in its damping derivative, which
# made a clamped high-gain velocity drive move the base backwards.
BASE_KP = (2e4, 2e4, 2e3)  # N/m, N/m, N m/rad
BASE_KV = (1e4, 1e4, 1.5e3)  # N s/m, N s/m, N m s/rad
BASE_LEAD = (0.03, 0.03, 0.1)  # m, m, rad: the hold servo pushes back with at most kp x lead
# Drive effort bound (N, N, N m): what a blocked base pushes with. Without it the velocity drive pushed
# a blocked base with kv x commanded speed (15 kN at 1.5 m/s), far beyond any real mobile base.
BASE_MAX_EFFORT = (3000.0, 3000.0, 600.0)
# Arm joint targets lead the joints by at most this (rad; pan, lift, roll, elbow, roll, wrist, roll): no
# wind-up against obstacles, and a blocked arm presses with < 100 N (measured) instead of 170-380 N.
ARM_LEAD = (0.05, 0.05, 0.08, 0.05, 0.1, 0.1, 0.2)
# The caps of each arm speed (tpsrl.sim.backend.ARM_SPEEDS): "fast" scales pan x1.75, lift x1.3, upper-arm
# roll x1.05, elbow x1.8, forearm roll and wrist flex x2.3 (wrist roll, limited by its gain, unchanged), so
# that those joints move at 0.80-0.98 of HAB's commanded rate (docs/results/hab/diagnostics/arm_speed/).
ARM_LEADS = {
    "capped": ARM_LEAD,
    "fast": tuple(float(v) for v in np.asarray(ARM_LEAD) * [1.75, 1.3, 1.05, 1.8, 2.3, 2.3, 1.0]),
}
# The base's contact softness (time constant, damping ratio): a 120 kg base stopped by a wall within
# ~50 ms instead of ~20 ms, so the impact force is that of a bumper, not of a rigid crash.
BASE_SOLREF = "0.05 1"
TORSO_LIFT = 0.10  # fixed torso lift (m)
HEAD_TILT = 0.45  # fixed head tilt (rad, down)
# Resting arm pose (elbow folded up, suction cup pointing forward-down): the EE at HAB's resting position,
# tpsrl.sim.sensors.REST_EE = [0.5, 0, 1.0] in the base frame (tests/sim/test_manipulation.py).
REST_QPOS = (-0.913, -1.009, -1.123, -1.386, -0.823, -1.754, 0.0)
# Joint ranges of the limited arm joints (rad, from the Fetch XML; the rolls are unlimited), in ARM_JOINTS
# order: None for an unlimited joint.
ARM_LIMITS: tuple[tuple[float, float] | None, ...] = (
    (-1.6056, 1.6056),
    (-1.221, 1.518),
    None,
    (-2.251, 2.251),
    None,
    (-2.16, 2.16),
    None,
)
ARM_ROLL = np.array([lim is None for lim in ARM_LIMITS])  # the unlimited (continuous) roll joints


def wrap_rolls(q: np.ndarray, about: np.ndarray | tuple[float, ...] = REST_QPOS) -> np.ndarray:
    """Arm joint angles with each roll joint (`ARM_ROLL`) turned by whole turns to within pi of `about`
    (rest by default): the same pose, read as an encoder reads it. Other joints are returned unchanged."""
    q = np.array(q, dtype=np.float64)
    a = np.asarray(about, dtype=np.float64)
    d = q - a
    turned = ARM_ROLL & (np.abs(d) > math.pi)  # only these change: readings within pi stay bit for bit
    q[turned] = a[turned] + (d[turned] + math.pi) % (2 * math.pi) - math.pi
    return q


# Collision bits: world 1, robot 2, movable objects 4, held object 8, furniture footprint 32 (the base
# alone collides with it; 16 is the floor's, in scene.py).
CT_WORLD, CT_ROBOT, CT_OBJECT, CT_HELD, CT_FOOTPRINT = 1, 2, 4, 8, 32
GROUP_ROBOT = 2  # geom group of robot geoms (excluded from head depth ray casting)


def fetch_asset_dir() -> Path:
    """Folder of the Fetch XML in the installed gymnasium-robotics package."""
    # Locate the package without importing it: importing registers dozens of envs and prints warnings.
    spec = importlib.util.find_spec("gymnasium_robotics")
    if spec is None or not spec.submodule_search_locations:  # pragma: no cover - a declared dependency
        raise ImportError("the Fetch model comes from gymnasium-robotics: pip install gymnasium-robotics")
    d = Path(next(iter(spec.submodule_search_locations))) / "envs" / "assets" / "fetch"
    if not (d / "robot.xml").exists():  # pragma: no cover
        raise FileNotFoundError(
            f"Fetch model not found at {d}/robot.xml (gymnasium-robotics layout changed?)"
        )
    return d


def _strip_joint(body: ET.Element, joint_name: str) -> None:
    for j in list(body.findall("joint")):
        if j.get("name") == joint_name:
            body.remove(j)


def _find_body(root: ET.Element, name: str) -> ET.Element:
    for b in root.iter("body"):
        if b.get("name") == name:
            return b
    raise KeyError(name)


@functools.lru_cache(maxsize=1)
def robot_parts() -> dict[str, str]:
    """MJCF snippets of the adapted robot: `assets`, `defaults`, `body`, `actuators`, `contacts`."""
    d = fetch_asset_dir()
    mesh_dir = (d.parent / "stls" / "fetch").resolve()
    shared = ET.parse(d / "shared.xml").getroot()
    robot = ET.parse(d / "robot.xml").getroot()

    assets = ET.Element("asset")
    for el in shared.find("asset"):
        if el.tag == "material" and el.get("name", "").startswith("robot0:"):
            assets.append(el)
        elif el.tag == "mesh":
            el = copy.deepcopy(el)
            el.set("file", str(mesh_dir / el.get("file")))
            assets.append(el)
    defaults = shared.find("default")
    fetch_default = defaults.find("default")
    geom_default = fetch_default.find("geom")
    geom_default.set("contype", str(CT_ROBOT))
    geom_default.set("conaffinity", str(CT_WORLD | CT_OBJECT))
    geom_default.set("group", str(GROUP_ROBOT))
    # The table-top model's solref 0.01 is stiffer than 2 x our 8.3 ms timestep allows: it explodes.
    geom_default.set("solref", "0.02 1")
    geom_default.set("solimp", "0.9 0.95 0.001")
    # Keep the model's joint armature (1) and damping (50): with 8.3 ms physics steps the stiff position
    # servos on the light, folded arm go unstable with less reflected inertia.

    base = _find_body(robot, "robot0:base_link")
    base.set("pos", "0 0 0")
    for name in ("robot0:slide0", "robot0:slide1", "robot0:slide2"):
        _strip_joint(base, name)
    joints = [
        ET.Element(
            "joint", name="base_x", type="slide", axis="1 0 0", damping="0", armature="0", limited="false"
        ),
        ET.Element(
            "joint", name="base_y", type="slide", axis="0 1 0", damping="0", armature="0", limited="false"
        ),
        ET.Element(
            "joint", name="base_yaw", type="hinge", axis="0 0 1", damping="0", armature="0", limited="false"
        ),
    ]
    for i, j in enumerate(joints):
        base.insert(i, j)
    base_geom = base.find("geom")
    base_geom.set("condim", "1")
    base_geom.set("priority", "1")
    base_geom.set("solref", BASE_SOLREF)
    base_geom.set("conaffinity", str(CT_WORLD | CT_OBJECT | CT_FOOTPRINT))
    for b in list(base):
        if b.tag == "body" and b.get("name") == "robot0:external_camera_body_0":
            base.remove(b)

    torso = _find_body(robot, "robot0:torso_lift_link")
    _strip_joint(torso, "robot0:torso_lift_joint")
    torso.set("pos", f"-0.0869 0 {0.3774 + TORSO_LIFT}")
    head_pan = _find_body(robot, "robot0:head_pan_link")
    _strip_joint(head_pan, "robot0:head_pan_joint")
    tilt = _find_body(robot, "robot0:head_tilt_link")
    _strip_joint(tilt, "robot0:head_tilt_joint")
    tilt.set("quat", f"{math.cos(HEAD_TILT / 2)} 0 {math.sin(HEAD_TILT / 2)} 0")
    cam_body = _find_body(robot, "robot0:head_camera_link")
    # The head depth camera: MuJoCo cameras look along -z with +y up; hfov 90 deg as in HAB.
    ET.SubElement(cam_body, "camera", name="head_depth", pos="0 0.045 0", xyaxes="0 -1 0 0 0 1", fovy="90")
    for side in ("r", "l"):
        finger = _find_body(robot, f"robot0:{side}_gripper_finger_link")
        _strip_joint(finger, f"robot0:{side}_gripper_finger_joint")
    for j in robot.iter(
        "joint"
    ):  # the table-top model springs the forearm roll toward 0; position control instead
        if j.get("name") == "robot0:forearm_roll_joint":
            for attr in ("stiffness", "armature", "damping"):
                j.attrib.pop(attr, None)
    for name in ARM_JOINTS:
        body = next(
            b
            for b in robot.iter("body")
            if any(j.get("name") == f"robot0:{name}" for j in b.findall("joint"))
        )
        body.set("gravcomp", "1")
    gripper = _find_body(robot, "robot0:gripper_link")
    gripper.set("gravcomp", "1")
    for b in gripper.iter("body"):
        b.set("gravcomp", "1")
    # Suction cup: a small sphere at the gripper tip; it is what must touch an object to grasp.
    ET.SubElement(
        gripper, "geom", name="suction_cup", type="sphere", size="0.018", pos="0.05 0 0", rgba="0.1 0.1 0.1 1"
    )

    actuators = ET.Element("actuator")
    for name, kp, eff in zip(ARM_JOINTS, ARM_KP, ARM_EFFORT, strict=True):
        ET.SubElement(
            actuators,
            "position",
            name=f"act_{name}",
            joint=f"robot0:{name}",
            kp=str(kp),
            dampratio="1",
            forcelimited="true",
            forcerange=f"{-eff} {eff}",
        )
    for name, kp, kv in zip(BASE_JOINTS, BASE_KP, BASE_KV, strict=True):
        ET.SubElement(actuators, "position", name=f"act_{name}_pos", joint=name, kp=str(kp))
        ET.SubElement(actuators, "velocity", name=f"act_{name}", joint=name, kv=str(kv))

    contacts = ET.Element("contact")
    for el in shared.find("contact"):
        contacts.append(el)

    text = functools.partial(ET.tostring, encoding="unicode")
    return {
        "assets": "".join(text(e) for e in assets),
        "defaults": text(fetch_default),
        "body": text(base),
        "actuators": "".join(text(e) for e in actuators),
        "contacts": "".join(text(e) for e in contacts),
    }
