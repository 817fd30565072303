"""Simulator layer: backend interface, spaces, episodes, symbolic facts, and the gymnasium env.

Backends are listed in `tpsrl.sim.registry.BACKENDS`; the MuJoCo backend is the default.
"""
