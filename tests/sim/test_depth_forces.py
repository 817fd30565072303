"""Depth (ray-cast vs OpenGL, known geometry), contact forces, base sliding along walls."""

from __future__ import annotations

import math

import numpy as np
import pytest

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.episode import EpisodeSpec, RobotStart
from tpsrl.sim.mujoco.backend import MujocoBackend
from tpsrl.sim.mujoco.depth import camera_rays
from tpsrl.sim.sensors import SENSORS


def _gl_ok() -> bool:
    try:
        import mujoco

        from tpsrl.sim.mujoco.scene import build_model

        mujoco.Renderer(build_model(0, ()), 4, 4).close()
        return True
    except Exception:  # noqa: BLE001
        return False


needs_gl = pytest.mark.skipif(
    not _gl_ok(), reason="no OpenGL context (install libegl1 or libosmesa6, set MUJOCO_GL)"
)


def test_camera_rays_are_unit_and_centered() -> None:
    dirs, cos = camera_rays(4, 4, 90.0)
    assert np.allclose(np.linalg.norm(dirs, axis=1), 1.0)
    assert np.allclose(dirs.mean(axis=0)[:2], 0.0) and (dirs[:, 2] < 0).all()
    assert np.allclose(cos, -dirs[:, 2])


def test_raycast_depth_sees_a_wall_at_the_right_distance() -> None:
    # Facing the west wall (x = 0.05) from x = 1.5 in the empty strip of layout 0's kitchen.
    sim = MujocoBackend(DepthSettings(height=32, width=32))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.5, 4.0, math.pi)))
    d = sim.head_depth()
    assert d.shape == (32, 32) and np.isfinite(d).all() and (d > 0).all() and (d <= 10.0).all()
    cam_x = sim.data.cam_xpos[sim.model.camera("head_depth").id][0]
    # Upper rows look above the floor straight at the wall: z-depth == horizontal distance (head tilt aside).
    fwd = -sim.data.cam_xmat[sim.model.camera("head_depth").id].reshape(3, 3)[:, 2]
    expected = (cam_x - 0.05) / abs(fwd[0]) if abs(fwd[0]) > 0.5 else None
    centre_top = d[2, 16]
    assert expected is not None
    assert centre_top < expected * 1.6 and centre_top > 0.5
    assert d[-1, 16] < d[0, 16]  # the floor near the robot is closer than the wall far up


@needs_gl
def test_raycast_and_gl_depth_agree() -> None:
    spec = MujocoBackend(DepthSettings(mode="none")).sample_episode(np.random.default_rng(3), n_clutter=8)
    a = MujocoBackend(DepthSettings(mode="raycast", height=48, width=48))
    b = MujocoBackend(DepthSettings(mode="gl", height=48, width=48))
    for sim in (a, b):
        sim.reset(spec)
        for _ in range(5):
            sim.step(np.zeros(7), -1.0, np.array([0.0, 0.3]))
    da, db = a.head_depth(), b.head_depth()
    diff = np.abs(da - db)
    assert np.median(diff) < 0.005, np.median(diff)
    assert (diff < 0.05).mean() > 0.97  # only silhouette pixels may differ
    b.close()


@needs_gl
def test_third_person_rgb_frame() -> None:
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(sim.sample_episode(np.random.default_rng(0)))
    img = sim.render_rgb("third_person", 120, 160)
    assert img.shape == (120, 160, 3) and img.dtype == np.uint8 and img.std() > 5
    sim.close()


def test_driving_into_a_wall_gives_force_and_slides() -> None:
    sim = MujocoBackend(DepthSettings(mode="none"))
    # Kitchen of layout 0, heading 45 deg into the west wall.
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.radians(135))))
    forces, arm = [], []
    for _ in range(45):
        sim.step(None, None, np.array([0.6, 0.0]))
        forces.append(sim.force_instant)
        arm.append(sim.arm_force)
    x, y, yaw = sim.base_pose
    assert max(forces) > 1000.0 and sim.force_accum >= sum(forces) - 1e-6
    assert all(a <= f + 1e-6 for a, f in zip(arm, forces, strict=True)) and max(arm) > 0.0  # the arm leads

    assert x > 0.25  # stopped by the wall (base radius ~0.3 m), not through it
    assert y > 4.6  # slid along the wall instead of sticking
    assert abs(yaw - math.radians(135)) < math.radians(10)  # frictionless base contact: no twist


def test_the_arm_contact_sensor_reads_the_force_rules_arm_force() -> None:
    # Not a HAB sensor (skill.contact): log(1 + the arm's contact force), what the force rule counts.
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.radians(135))))
    read = SENSORS["arm_contact_force"].read
    assert read(sim, None).tolist() == [0.0]  # at rest in free space: nothing touches the arm
    readings = []
    for _ in range(45):
        sim.step(None, None, np.array([0.6, 0.0]))  # into the west wall, arm first
        value = read(sim, None)
        assert value.shape == (1,) and value.dtype == np.float32
        assert value[0] == pytest.approx(math.log1p(sim.arm_force), rel=1e-5)
        readings.append(float(value[0]))
    assert max(readings) > math.log1p(20.0)  # more than the force rule's min_force
    sim.close()


def test_backing_into_a_wall_is_base_force_not_arm_force() -> None:
    # HAB's base moves on a navmesh and never pushes on the scene, so the skills' force rule reads the
    # arm's contacts only: the base's back against the wall is robot force but not arm force.
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.radians(-45))))
    forces, arm = [], []
    for _ in range(45):
        sim.step(None, None, np.array([-0.6, 0.0]))
        forces.append(sim.force_instant)
        arm.append(sim.arm_force)
    assert max(forces) > 1000.0 and max(arm) == 0.0
    sim.close()


def test_instability_is_flagged_not_raised() -> None:
    from tpsrl.sim.env import EnvConfig, RearrangeEnv

    env = RearrangeEnv(EnvConfig(depth=DepthSettings(mode="none"), observations=("joint", "is_holding")))
    env.reset(seed=0)
    env.backend.data.qvel[:] = 1e9  # inject an exploding state
    obs, r, term, trunc, info = env.step(np.zeros(env.action_space.shape, np.float32))
    assert term and info["physics_unstable"] and info["episode_stats"]["physics_unstable"] == 1.0
    assert all(np.isfinite(v).all() for v in obs.values())
    env.reset(seed=1)
    _, _, term, _, info = env.step(np.zeros(env.action_space.shape, np.float32))
    assert not info.get("physics_unstable", False)


def _front_gap(sim: MujocoBackend, furniture: str) -> float:
    """Distance (m) from the base centre to the front face of `furniture`, along its front axis."""
    from tpsrl.sim.mujoco.layout import make_layout

    f = make_layout(0).get(furniture)
    x, y, _ = sim.base_pose
    local = math.cos(f.yaw) * (x - f.x) + math.sin(f.yaw) * (y - f.y)
    return local - f.spec.depth / 2


@pytest.mark.parametrize("table", ["dining_table", "coffee_table"])
def test_the_base_cannot_drive_under_a_table(table: str) -> None:
    # HAB's base moves on a navmesh without furniture footprints; ours is stopped by an invisible box.
    from tests.sim.helpers import facing

    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=facing(0, table, 0.6)))
    for _ in range(90):
        sim.step(None, None, np.array([0.6, 0.0]))
    assert sim.force_instant > 100.0  # pushing against something
    assert sim.arm_force == 0.0  # ... with the base, not the arm
    assert _front_gap(sim, table) > 0.25, _front_gap(sim, table)  # base radius ~0.29 m


def test_footprints_stop_the_base_alone_and_are_invisible() -> None:
    from tpsrl.sim.mujoco.depth import RayCastDepth
    from tpsrl.sim.mujoco.scene import build_model

    m = build_model(0, (("apple", "apple"),))
    prints = [g for g in range(m.ngeom) if m.geom(g).name.endswith("_footprint")]
    assert len(prints) == 2  # layout 0's dining and coffee tables
    for p in prints:
        hits = [
            m.geom(g).name
            for g in range(m.ngeom)
            if (m.geom_contype[p] & m.geom_conaffinity[g]) or (m.geom_contype[g] & m.geom_conaffinity[p])
        ]
        assert hits == ["robot0:base_link"], hits  # not the arm, not objects, not the floor
        assert m.geom_rgba[p][3] == 0.0  # not drawn
    rays = RayCastDepth(m, "head_depth", 8, 8, 10.0)
    assert not set(prints) & set(rays.scene_geoms.tolist())  # not seen by head depth


def test_odometry_reads_the_speed_driving_and_zero_when_blocked() -> None:
    # Kitchen of layout 0, heading straight at the west wall (the wall test's strip).
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.pi)))
    sim.step(None, None, np.array([0.2, 0.0]))
    sim.step(None, None, np.array([0.2, 0.0]))
    forward, left, turn = sim.base_odometry
    assert forward == pytest.approx(0.2 * 2.5, rel=0.1) and abs(left) < 0.02 and abs(turn) < 0.02
    sim.step(None, None, np.array([0.0, -0.4]))
    assert sim.base_odometry[2] == pytest.approx(-0.4 * 2.5, rel=0.1)  # yaw rate in the base frame
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.pi)))
    for _ in range(60):
        sim.step(None, None, np.array([0.6, 0.0]))
    x, _, _ = sim.base_pose
    assert x < 0.45 and sim.force_instant > 100.0  # pressed against the wall
    assert np.abs(sim.base_odometry).max() < 0.05  # commanded 1.5 m/s, measured ~0
    sim.close()


def test_the_range_ring_reads_the_wall_ahead_and_turns_with_the_base() -> None:
    # Not a HAB sensor (skill.ranges): 12 horizontal rays at each of two heights from the base centre.
    from tpsrl.sim.mujoco.depth import RANGE_HEIGHTS, RANGE_MAX, RANGE_RAYS

    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.5, 4.0, math.pi)))  # facing the west wall (x = 0.05)
    read = SENSORS["base_ranges"].read
    r = read(sim, None)
    assert r.shape == SENSORS["base_ranges"].shape(1, (0, 0)) == (len(RANGE_HEIGHTS) * RANGE_RAYS,)
    assert r.dtype == np.float32 and (r > 0).all() and (r <= RANGE_MAX).all()
    x = sim.base_pose[0]
    for ring in range(len(RANGE_HEIGHTS)):
        ahead = r[ring * RANGE_RAYS]
        assert ahead == pytest.approx(x - 0.05, abs=0.01)  # the wall; the arm in front is not seen
        # 30 degrees to either side the same wall is 1 / cos(30) farther
        for k in (1, RANGE_RAYS - 1):
            assert r[ring * RANGE_RAYS + k] == pytest.approx(
                min((x - 0.05) / math.cos(math.pi / 6), 2.0), abs=0.01
            )
    # Turned half round the wall is behind: ray 6 reads it, ray 0 does not
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.5, 4.0, 0.0)))
    r2 = read(sim, None)
    assert r2[RANGE_RAYS // 2] == pytest.approx(sim.base_pose[0] - 0.05, abs=0.01)
    assert r2[0] > r2[RANGE_RAYS // 2] + 0.3
    sim.close()


def test_the_arm_force_peak_is_its_largest_single_contact() -> None:
    # HAB's RobotForce reads the largest contact point's normal force; arm_force sums the arm's contacts.
    import mujoco

    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(EpisodeSpec(layout=0, robot=RobotStart(1.2, 4.0, math.radians(135))))
    assert sim.arm_force_peak == 0.0
    m = sim.model
    robot = {g for g in range(m.ngeom) if m.geom_group[g] == 2}  # robot geoms are group 2 (docs/simulator.md)
    shoulder = m.jnt_bodyid[m.joint("robot0:shoulder_pan_joint").id]

    def below_shoulder(body: int) -> bool:
        while body > 0 and body != shoulder:
            body = m.body_parentid[body]
        return body == shoulder

    arm_geoms = {g for g in robot if below_shoulder(m.geom_bodyid[g])}
    several = 0
    f = np.zeros(6)
    for _ in range(45):
        sim.step(None, None, np.array([0.6, 0.0]))  # into the west wall, arm first
        d = sim.data
        singles = []
        for i in range(d.ncon):
            g1, g2 = (int(g) for g in d.contact.geom[i])
            robot_and_other = (g1 in robot) != (g2 in robot)
            if robot_and_other and (g1 in arm_geoms or g2 in arm_geoms):
                mujoco.mj_contactForce(sim.model, d, i, f)
                singles.append(abs(f[0]))
        assert sim.arm_force_peak == pytest.approx(max(singles, default=0.0), abs=1e-6)
        assert sim.arm_force_peak <= sim.arm_force + 1e-6
        several += sim.arm_force > sim.arm_force_peak + 1.0
    assert several > 0  # some step pressed with more than one contact: the sum read more than the peak
    sim.close()
