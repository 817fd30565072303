"""Simulator layer: backend interface, spaces, episodes, symbolic facts, and the gymnasium env.

Backends are listed in `tpsrl.sim.backend.BACKENDS`; the MuJoCo backend is the default.
"""

import os as _os

# MuJoCo picks its OpenGL backend when it is first imported: default to headless EGL (the user's
# MUJOCO_GL wins). Ray-cast depth needs no OpenGL at all.
_os.environ.setdefault("MUJOCO_GL", "egl")
