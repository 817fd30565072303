"""`MujocoBackend`: the MuJoCo simulator behind the `SimBackend` interface."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..backend import DepthSettings
from ..episode import EpisodeRules, EpisodeSpec
from ..symbolic import Region, SceneState, goal_name
from . import layout as L
from .episodes import sample_episode
from .sim import MujocoSim


class MujocoBackend(MujocoSim):
    """MuJoCo simulator plus episode sampling and the symbolic scene state."""

    def __init__(
        self, depth: DepthSettings | dict | None = None, grasp: str = "contact", arm_speed: str = "capped"
    ) -> None:
        if isinstance(depth, dict):
            depth = DepthSettings(**depth)
        super().__init__(depth, grasp, arm_speed)

    def rules(self) -> EpisodeRules:
        return self._rules

    def sample_episode(self, rng: np.random.Generator, **kwargs: Any) -> EpisodeSpec:
        return sample_episode(rng, **kwargs)

    def scene_state(self) -> SceneState:
        spec = self.spec
        x, y, _ = self.base_pose
        objects = {h: tuple(map(float, p)) for h, p in self.object_positions().items()}
        goals = {goal_name(t.handle): t.goal for t in spec.targets}
        arts = {name: self.articulation(name) for name in self._art_q}
        return SceneState(
            (x, y),
            self.held if self.held in objects else None,
            objects,
            goals,
            _regions(spec.layout, arts),
            arts,
        )


def _regions(layout_index: int, arts: dict[str, float]) -> dict[str, Region]:
    """The "in" region of every receptacle: a box above each surface; drawer boxes move as they open."""
    out: dict[str, Region] = {}
    for name, r in L.receptacles(L.make_layout(layout_index)).items():
        (cx, cy, z), (hx, hy) = r.center_at(arts), r.half
        if r.joint is not None and r.joint.startswith("drawer"):
            top = z + 0.18
        elif r.joint == "fridge":
            top = z + 0.7
        else:
            top = z + 0.35
        m = 0.05
        out[name] = Region((cx - hx - m, cy - hy - m, z - 0.03), (cx + hx + m, cy + hy + m, top))
    return out
