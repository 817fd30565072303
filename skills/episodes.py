"""Episode sources of the skills: objects on any receptacle (open surfaces, the open fridge, an open
drawer), goals, articulation states and a robot spawn that follows HAB's rules (skills/spawn.py)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from tpsrl.sim.backend import SimBackend
from tpsrl.sim.episode import EpisodeSpec, RobotStart
from tpsrl.sim.mujoco import layout as L
from tpsrl.sim.mujoco.episodes import OPEN_SURFACES, sample_episode
from tpsrl.sim.mujoco.objects import object_type
from tpsrl.sim.mujoco.robot import ARM_LIMITS, REST_QPOS

from .config import SkillConfig
from .spawn import (
    SpawnError,
    articulation_disks,
    habitat2_start,
    reachable_from_free,
    sample_base,
    sample_base_habitat2,
    sample_base_habitat2_articulated,
)
from .splits import split_layouts

CONTAINERS = ("fridge", "drawer_0")
"""Receptacles inside articulated furniture that objects may start or end in (opened for the episode)."""
ALL_RECEPTACLES = OPEN_SURFACES + CONTAINERS
OPEN_RANGE: dict[str, tuple[float, float]] = {
    "fridge": (1.57, 2.0),
    "drawer_0": (0.4, 0.5),
    "drawer_1": (0.4, 0.5),
}
"""How far a container is opened when an object starts or ends inside it (rad / m)."""


def arm_start(rng: np.random.Generator, noise: float) -> tuple[float, ...] | None:
    """A start pose of the arm for `skill.arm_start_noise` = `noise`: each joint at rest plus
    s x U(-noise, noise) (s ~ U(0, 1) for the episode), clipped into the joint limits. None (the rest pose)
    when `noise` is 0, drawing nothing: the episodes of such configs are those drawn before the field."""
    if noise <= 0.0:
        return None
    q = np.asarray(REST_QPOS) + rng.uniform() * rng.uniform(-noise, noise, len(REST_QPOS))
    for i, lim in enumerate(ARM_LIMITS):
        if lim is not None:
            q[i] = np.clip(q[i], lim[0] + 0.01, lim[1] - 0.01)
    return tuple(float(v) for v in q)


def _choose(
    rng: np.random.Generator, layout: int, names: tuple[str, ...], avoid: str | None = None
) -> str | None:
    have = L.receptacles(L.make_layout(layout))
    ok = [r for r in names if r in have and r != avoid] or [r for r in names if r in have]
    return str(rng.choice(ok)) if ok else None


class ObjectEpisodes:
    """Pick / place / nav episodes: one target object and its goal, robot spawned near an anchor.

    `anchor` is "object" (pick), "goal" (place) or "nav" (>= min_dist from the object, or from the
    goal when holding). `hold_prob` starts holding the target (place: 1, nav: HAB's 0.167).
    """

    def __init__(
        self,
        cfg: SkillConfig,
        receptacles: tuple[str, ...],
        goal_receptacles: tuple[str, ...],
        anchor: str,
        hold_prob: float = 0.0,
        min_dist: float = 0.0,
        goal_radius: float = 0.0,
    ) -> None:
        if cfg.spawn_rule != "within" and anchor == "nav":
            raise ValueError(
                f"skill.spawn_rule: {cfg.spawn_rule!r} is pick's and place's; nav takes 'within'"
            )
        self.cfg, self.receptacles, self.goal_receptacles = cfg, receptacles, goal_receptacles
        self.anchor, self.hold_prob, self.min_dist, self.goal_radius = (
            anchor,
            hold_prob,
            min_dist,
            goal_radius,
        )
        self.layouts = split_layouts(cfg.split)
        self._count = 0

    def sample(self, backend: SimBackend, rng: np.random.Generator) -> EpisodeSpec:
        last = ""
        for _ in range(self.cfg.spawn_tries):
            try:
                return self._try(rng, int(rng.choice(self.layouts)))
            except (SpawnError, RuntimeError, ValueError) as e:
                last = str(e)
        raise SpawnError(
            f"skill spawn: no episode satisfied the spawn rules in {self.cfg.spawn_tries} tries "
            f"(skill.spawn_tries; receptacles {list(self.receptacles)}, skill.spawn_max_dist "
            f"{self.cfg.spawn_max_dist}); last failure: {last}"
        )

    def _try(self, rng: np.random.Generator, layout: int) -> EpisodeSpec:
        rec = _choose(rng, layout, self.receptacles)
        grec = _choose(rng, layout, self.goal_receptacles, avoid=rec)
        if rec is None or grec is None:
            raise SpawnError(f"layout {layout} has none of the receptacles {list(self.receptacles)}")
        # In a fixed order (not a set's): the draws must not depend on Python's string-hash seed.
        arts = {r: float(rng.uniform(*OPEN_RANGE[r])) for r in dict.fromkeys((rec, grec)) if r in OPEN_RANGE}
        spec = sample_episode(
            rng,
            layout,
            1,
            self.cfg.clutter,
            (rec,),
            (grec,),
            object_types=self.cfg.object_types,
            articulations=arts,
            episode_id="",
        )
        obj = spec.objects[0]
        top = np.array(obj.pos) + [0.0, 0.0, object_type(obj.type).half_height]
        goal = np.array(spec.targets[0].goal)
        disks = articulation_disks(layout, arts)
        held = rng.random() < self.hold_prob
        if self.anchor != "nav":
            for p in (top, goal):
                if not reachable_from_free(layout, p, disks):
                    raise SpawnError(
                        f"{np.round(p, 2).tolist()} in layout {layout} is out of the arm's reach"
                    )
        anchor = {"object": top, "goal": goal}.get(self.anchor, goal if held else top)
        if self.cfg.spawn_rule == "habitat2":
            x, y, yaw = sample_base_habitat2(
                rng,
                layout,
                habitat2_start(layout, rec if self.anchor == "object" else grec, anchor, arts),
                anchor,
                yaw_noise=self.cfg.yaw_noise,
                base_noise=self.cfg.base_noise,
                disks=disks,
                tries=self.cfg.spawn_tries,
                clearance=self.cfg.spawn_clearance,
            )
        else:
            x, y, yaw = sample_base(
                rng,
                layout,
                anchor,
                min_dist=self.min_dist,
                max_dist=self.cfg.spawn_max_dist,
                yaw_noise=self.cfg.yaw_noise,
                base_noise=self.cfg.base_noise,
                disks=disks,
                tries=self.cfg.spawn_tries,
                clearance=self.cfg.spawn_clearance,
                near_prob=self.cfg.near_furniture_prob,
                navmesh=self.cfg.spawn_rule == "navmesh",
            )
        if self.goal_radius > 0:  # nav: some free cell must satisfy the success distance
            sample_base(
                rng,
                layout,
                anchor,
                min_dist=0.0,
                max_dist=self.goal_radius - 0.1,
                yaw_noise=0.0,
                base_noise=0.0,
                disks=disks,
                tries=self.cfg.spawn_tries,
            )
        self._count += 1
        return replace(
            spec,
            robot=RobotStart(x, y, yaw, arm=arm_start(rng, self.cfg.arm_start_noise)),
            held=obj.handle if held else None,
            nav_goal=(float(anchor[0]), float(anchor[1])) if self.anchor == "nav" else None,
            episode_id=f"{self.anchor}-L{layout}-{self._count}",
        )


def handle_anchor(layout: int, marker: str) -> np.ndarray:
    """A point at the front of the furniture holding `marker`'s handle (spawns face it)."""
    kind = "fridge" if marker == "fridge" else "cabinet"
    f = next(f for f in L.make_layout(layout).furniture if f.kind == kind)
    x, y = f.to_world(f.spec.depth / 2 + 0.05, 0.0)
    z = 1.0 if marker == "fridge" else L.DRAWER_HEIGHTS[int(marker[-1])] + 0.12
    return np.array([x, y, z])


class ArticulationEpisodes:
    """Open/close episodes: the fridge or a drawer closed (open task) or opened (close task)."""

    def __init__(
        self, cfg: SkillConfig, markers: tuple[str, ...], start: tuple[float, float], mode: str = "open"
    ) -> None:
        if cfg.spawn_rule not in ("within", "habitat2"):
            raise ValueError(
                f"skill.spawn_rule: {cfg.spawn_rule!r} is pick's and place's; open/close tasks take 'within' "
                "or 'habitat2'"
            )
        if cfg.spawn_rule == "habitat2" and mode == "close" and "fridge" not in markers:
            raise ValueError(
                "skill.spawn_rule: 'habitat2' is not available for close_drawer: Habitat 2.0's region stands "
                "the base 0.4 m from the open drawer's front, inside the keep-out our spawns keep around it"
            )
        self.cfg, self.markers, self.start, self.mode = cfg, markers, start, mode
        self.layouts = split_layouts(cfg.split)
        self._count = 0

    def sample(self, backend: SimBackend, rng: np.random.Generator) -> EpisodeSpec:
        last = ""
        for _ in range(self.cfg.spawn_tries):
            layout = int(rng.choice(self.layouts))
            marker = str(rng.choice(self.markers))
            arts = {marker: float(rng.uniform(*self.start))}
            try:
                spec = sample_episode(
                    rng, layout, 0, self.cfg.clutter, object_types=self.cfg.object_types, articulations=arts
                )
                disks = articulation_disks(layout, arts)
                if self.cfg.spawn_rule == "habitat2":
                    x, y, yaw = sample_base_habitat2_articulated(
                        rng, layout, marker, self.mode, disks=disks, tries=self.cfg.spawn_tries
                    )
                else:
                    x, y, yaw = sample_base(
                        rng,
                        layout,
                        handle_anchor(layout, marker),
                        min_dist=0.0,
                        max_dist=self.cfg.spawn_max_dist,
                        yaw_noise=self.cfg.yaw_noise,
                        base_noise=self.cfg.base_noise,
                        disks=disks,
                        tries=self.cfg.spawn_tries,
                    )
            except (SpawnError, RuntimeError) as e:
                last = str(e)
                continue
            self._count += 1
            return replace(
                spec,
                robot=RobotStart(x, y, yaw, arm=arm_start(rng, self.cfg.arm_start_noise)),
                marker=marker,
                episode_id=f"{marker}-L{layout}-{self._count}",
            )
        raise SpawnError(
            f"skill spawn: no {list(self.markers)} episode in {self.cfg.spawn_tries} tries; last: {last}"
        )


def fridge_start(mode: str) -> tuple[float, float]:
    return (0.0, 0.0) if mode == "open" else (math.pi / 4, 2 * math.pi / 3)
