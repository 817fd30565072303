"""Importing this module registers tpsrl's environments with gymnasium; that is all it does.

It lets gymnasium's "module:id" form find them without an import-time side effect elsewhere:
`gymnasium.make("tpsrl.sim.gym_register:tpsrl/Rearrange-v0", config={...})`, or
`tpsrl-train env.id=tpsrl.sim.gym_register:tpsrl/Rearrange-v0`.
"""

from .env import register

register()
