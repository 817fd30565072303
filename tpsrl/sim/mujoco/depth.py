"""Head depth images: ray casting (no OpenGL, default) and an OpenGL path; both give z-depth.

Both return planar (z-)depth in metres along the camera axis, clipped to `max_depth`, with rays that hit
nothing at `max_depth`; robot geoms are invisible to both (as the head camera sees past the arm).
"""

from __future__ import annotations

import math

import mujoco
import numpy as np

from .robot import GROUP_ROBOT

SCENE_GROUPS = np.array([1, 1, 0, 0, 0, 0], dtype=np.uint8)  # world (0) and objects (1); not robot (2)
assert GROUP_ROBOT == 2


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


class RayCastDepth:
    """Depth by `mj_multiRay` from the camera origin; needs no OpenGL."""

    def __init__(self, model: mujoco.MjModel, camera: str, height: int, width: int, max_depth: float) -> None:
        self.cam_id = model.camera(camera).id
        self.height, self.width, self.max_depth = height, width, max_depth
        self.local_dirs, self.cos = camera_rays(height, width, float(model.cam_fovy[self.cam_id]))
        n = height * width
        self._vec = np.zeros((n, 3))
        self._geomid = np.zeros(n, dtype=np.int32)
        self._dist = np.zeros(n)

    def render(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        """Depth [H, W] in metres. Needs camera poses current (mj_kinematics + mj_camlight)."""
        R = data.cam_xmat[self.cam_id].reshape(3, 3)
        np.matmul(self.local_dirs, R.T, out=self._vec)
        mujoco.mj_multiRay(
            model,
            data,
            data.cam_xpos[self.cam_id],
            self._vec.reshape(-1),
            SCENE_GROUPS,
            True,
            -1,
            self._geomid,
            self._dist,
            None,
            self._vec.shape[0],
            self.max_depth,
        )
        depth = self._dist * self.cos
        depth[self._geomid < 0] = self.max_depth
        np.minimum(depth, self.max_depth, out=depth)
        return depth.reshape(self.height, self.width)


class GLDepth:
    """Depth from MuJoCo's OpenGL renderer (EGL or OSMesa: set MUJOCO_GL before importing mujoco)."""

    def __init__(self, model: mujoco.MjModel, camera: str, height: int, width: int, max_depth: float) -> None:
        self.renderer = mujoco.Renderer(model, height, width)
        self.renderer.enable_depth_rendering()
        self.camera, self.max_depth = camera, max_depth
        self.option = mujoco.MjvOption()
        self.option.geomgroup[:] = 0
        self.option.geomgroup[0] = self.option.geomgroup[1] = 1
        self.option.sitegroup[:] = 0

    def render(self, model: mujoco.MjModel, data: mujoco.MjData) -> np.ndarray:
        self.renderer.update_scene(data, camera=self.camera, scene_option=self.option)
        depth = self.renderer.render().astype(np.float64)
        depth[depth <= 0] = self.max_depth
        return np.minimum(depth, self.max_depth)

    def close(self) -> None:
        self.renderer.close()
