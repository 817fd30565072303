"""Head depth images: ray casting (no OpenGL, default) and an OpenGL path; both give z-depth.

Both return planar (z-)depth in metres along the camera axis, clipped to `max_depth`, with rays that hit
nothing at `max_depth`; robot geoms are invisible to both (as the head camera sees past the arm).

The ray caster splits the scene: walls and floor (geom group 0, axis-aligned and static) are intersected
in closed form with numpy, and furniture and objects (group 1) with `mj_multiRay` on a small model that
holds only those geoms. `mj_multiRay`'s cost per ray grows with every geom of the model it is given
(about 4 ns per ray and geom, excluded groups included), and walls enclose every ray, so this halves
the cost of a 64x64 image compared with casting against the full scene.
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from .layout import APARTMENT_SIZE, WALL_HEIGHT, WALL_THICKNESS, WALLS

ARCH_GROUP, SCENE_GROUP = 0, 1
_TYPES = {
    int(mujoco.mjtGeom.mjGEOM_BOX): "box",
    int(mujoco.mjtGeom.mjGEOM_CYLINDER): "cylinder",
    int(mujoco.mjtGeom.mjGEOM_SPHERE): "sphere",
    int(mujoco.mjtGeom.mjGEOM_CAPSULE): "capsule",
    int(mujoco.mjtGeom.mjGEOM_ELLIPSOID): "ellipsoid",
}


def camera_rays(height: int, width: int, fovy_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """Unit ray directions [H*W, 3] in the camera frame (looking along -z) and their cosines [H*W]."""
    t = math.tan(math.radians(fovy_deg) / 2)
    aspect = width / height
    ys = (1 - (np.arange(height) + 0.5) * 2 / height) * t
    xs = ((np.arange(width) + 0.5) * 2 / width - 1) * t * aspect
    X, Y = np.meshgrid(xs, ys)
    dirs = np.stack([X, Y, -np.ones_like(X)], axis=-1).reshape(-1, 3)
    norms = np.linalg.norm(dirs, axis=1)
    return dirs / norms[:, None], 1.0 / norms


def _scene_only_model(model: mujoco.MjModel, geoms: np.ndarray) -> mujoco.MjModel:
    """A model of static copies of `geoms` (same types and sizes); their poses are set per call."""
    parts = []
    for j, g in enumerate(geoms):
        kind = _TYPES.get(int(model.geom_type[g]))
        if kind is None:
            raise ValueError(
                f"ray casting supports primitive scene geoms only; geom {model.geom(g).name!r} is not"
            )
        parts.append(
            f'<geom name="g{j}" type="{kind}" size="{" ".join(f"{v:.9g}" for v in model.geom_size[g])}"/>'
        )
    return mujoco.MjModel.from_xml_string(f"<mujoco><worldbody>{''.join(parts)}</worldbody></mujoco>")


def _cast(
    model: mujoco.MjModel,
    data: mujoco.MjData,
    origin: np.ndarray,
    dirs: np.ndarray,
    geomid: np.ndarray,
    dist: np.ndarray,
    cutoff: float,
) -> np.ndarray:
    """Distances [R] along the rays `dirs` [R, 3] from `origin` to the first geom of `model` (every geom
    group, static ones included), inf where none is within `cutoff`; `geomid` and `dist` [R] are scratch."""
    flags_all_groups, include_static, no_body_excluded = None, True, -1
    mujoco.mj_multiRay(
        model,
        data,
        origin,
        dirs.reshape(-1),
        flags_all_groups,
        include_static,
        no_body_excluded,
        geomid,
        dist,
        None,
        len(dirs),
        cutoff,
    )
    return np.where(geomid >= 0, dist, np.inf)


def architecture_distance(origin: np.ndarray, dirs: np.ndarray) -> np.ndarray:
    """Distance [n] along unit rays `dirs` [n, 3] from `origin` to the first wall or the floor (inf: none).

    Walls are the layout's axis-aligned boxes from z = 0 to WALL_HEIGHT; `origin` must be inside the
    apartment and outside every wall. The outer walls are the inside faces of one box (cheap per ray);
    only the inner walls need a test per ray and wall.
    """
    px, py, pz = (float(v) for v in origin)
    dx, dy, dz = dirs[:, 0], dirs[:, 1], dirs[:, 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        ix, iy = 1.0 / dx, 1.0 / dy
        # Leaving the apartment through the inside face of an outer wall.
        tx = (np.where(dx > 0, _INNER_HI[0], _INNER_LO[0]) - px) * ix
        ty = (np.where(dy > 0, _INNER_HI[1], _INNER_LO[1]) - py) * iy
        tx[dx == 0.0], ty[dy == 0.0] = np.inf, np.inf  # parallel to those faces (a ray along an axis)
        t_out = np.minimum(tx, ty)
        t_out[pz + t_out * dz > WALL_HEIGHT] = np.inf  # over the wall top
        # Inner walls: slab test per ray and wall, [n, W].
        tx1, tx2 = (_WX0 - px) * ix[:, None], (_WX1 - px) * ix[:, None]
        ty1, ty2 = (_WY0 - py) * iy[:, None], (_WY1 - py) * iy[:, None]
        tmin = np.maximum(np.minimum(tx1, tx2), np.minimum(ty1, ty2))
        tmax = np.minimum(np.maximum(tx1, tx2), np.maximum(ty1, ty2))
        z = pz + tmin * dz[:, None]
        hit = (tmax >= tmin) & (tmin > 0.0) & (z <= WALL_HEIGHT)
        t_in = np.where(hit, tmin, np.inf).min(axis=1)
        floor = np.where(dz < 0.0, -pz / dz, np.inf)
    return np.minimum(np.minimum(t_out, t_in), floor)


_INNER = WALLS[4:]  # layout.py lists the four outer walls first; they are the box faces below
_INNER_LO = (WALL_THICKNESS / 2, WALL_THICKNESS / 2)
_INNER_HI = (APARTMENT_SIZE[0] - WALL_THICKNESS / 2, APARTMENT_SIZE[1] - WALL_THICKNESS / 2)
_WX0 = np.array([w.x0 for w in _INNER])[None, :]
_WX1 = np.array([w.x1 for w in _INNER])[None, :]
_WY0 = np.array([w.y0 for w in _INNER])[None, :]
_WY1 = np.array([w.y1 for w in _INNER])[None, :]


class RayCastDepth:
    """Depth by ray casting from the camera origin; needs no OpenGL."""

    def __init__(self, model: mujoco.MjModel, camera: str, height: int, width: int, max_depth: float) -> None:
        self.cam_id = model.camera(camera).id
        self.height, self.width, self.max_depth = height, width, max_depth
        self.local_dirs, self.cos = camera_rays(height, width, float(model.cam_fovy[self.cam_id]))
        self.scene_geoms = np.nonzero(model.geom_group == SCENE_GROUP)[0]
        self.ray_model = _scene_only_model(model, self.scene_geoms)
        self.ray_data = mujoco.MjData(self.ray_model)
        n = height * width
        self._vec = np.zeros((n, 3))
        self._geomid = np.zeros(n, dtype=np.int32)
        self._dist = np.zeros(n)

    def render(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        """Depth [H, W] in metres. Needs camera and geom poses current (mj_kinematics + mj_camlight)."""
        rd = self.ray_data
        rd.geom_xpos[:] = data.geom_xpos[self.scene_geoms]
        rd.geom_xmat[:] = data.geom_xmat[self.scene_geoms]
        origin = data.cam_xpos[self.cam_id]
        np.matmul(self.local_dirs, data.cam_xmat[self.cam_id].reshape(3, 3).T, out=self._vec)
        dist = _cast(self.ray_model, rd, origin, self._vec, self._geomid, self._dist, self.max_depth)
        np.minimum(dist, architecture_distance(origin, self._vec), out=dist)
        return np.minimum(dist * self.cos, self.max_depth).reshape(self.height, self.width)


RANGE_RAYS = 12
"""Rays per ring of `RangeRing`, evenly spaced around the base (30 degrees apart), the first straight ahead."""
RANGE_HEIGHTS = (0.3, 1.0)
"""Heights of `RangeRing`'s rings (m): the base's bumper, and the resting arm (elbow and gripper at 1.0-1.2 m
stick out 0.33-0.5 m from the base centre, beyond the 0.3 m base radius that spawns keep clear)."""
RANGE_MAX = 2.0
"""`RangeRing`'s longest reading (m); nothing within it reads this."""


class RangeRing:
    """Horizontal distances from the base centre to walls and furniture: `RANGE_RAYS` rays at each of
    `RANGE_HEIGHTS`, turning with the base (a planar lidar's readings, not a HAB sensor). Robot geoms are
    invisible, as for depth."""

    def __init__(self, model: mujoco.MjModel) -> None:
        self.angles = 2 * math.pi * np.arange(RANGE_RAYS) / RANGE_RAYS
        self.scene_geoms = np.nonzero(model.geom_group == SCENE_GROUP)[0]
        self.ray_model = _scene_only_model(model, self.scene_geoms)
        self.ray_data = mujoco.MjData(self.ray_model)
        self._geomid = np.zeros(RANGE_RAYS, dtype=np.int32)
        self._dist = np.zeros(RANGE_RAYS)

    def read(self, data: mujoco.MjData, x: float, y: float, yaw: float) -> np.ndarray:
        """Distances [len(RANGE_HEIGHTS) * RANGE_RAYS] in metres, ring by ring (lowest first), each ring
        counter-clockwise from straight ahead, clipped to `RANGE_MAX`. Needs geom poses current."""
        rd = self.ray_data
        rd.geom_xpos[:] = data.geom_xpos[self.scene_geoms]
        rd.geom_xmat[:] = data.geom_xmat[self.scene_geoms]
        a = self.angles + yaw
        vec = np.stack([np.cos(a), np.sin(a), np.zeros_like(a)], axis=1)
        out = []
        for z in RANGE_HEIGHTS:
            origin = np.array([x, y, z])
            dist = _cast(self.ray_model, rd, origin, vec, self._geomid, self._dist, RANGE_MAX)
            out.append(np.minimum(np.minimum(dist, architecture_distance(origin, vec)), RANGE_MAX))
        return np.concatenate(out)


class GLDepth:
    """Depth from MuJoCo's OpenGL renderer (EGL or OSMesa: set MUJOCO_GL before importing mujoco)."""

    def __init__(self, model: mujoco.MjModel, camera: str, height: int, width: int, max_depth: float) -> None:
        self.renderer = mujoco.Renderer(model, height, width)
        self.renderer.enable_depth_rendering()
        self.camera, self.max_depth = camera, max_depth
        self.option = mujoco.MjvOption()
        self.option.geomgroup[:] = 0
        self.option.geomgroup[ARCH_GROUP] = self.option.geomgroup[SCENE_GROUP] = 1
        self.option.sitegroup[:] = 0

    def render(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        self.renderer.update_scene(data, camera=self.camera, scene_option=self.option)
        depth = self.renderer.render().astype(np.float64)
        depth[depth <= 0] = self.max_depth
        return np.minimum(depth, self.max_depth)

    def close(self) -> None:
        self.renderer.close()
