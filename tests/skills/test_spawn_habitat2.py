"""`skill.spawn_rule=habitat2`: Habitat 2.0's per-skill spawn (the free cell nearest the target, in front
of the fridge or open drawer that holds it), and the default rule's draws left as they were."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from skills.registry import make_env
from skills.spawn import HABITAT2_NOISE_RADIUS, _free_cells
from tpsrl.sim.mujoco import layout as L


def _starts(skill: str, n: int, **fields) -> list[tuple[int, np.ndarray, float, np.ndarray, str]]:
    """(layout, base xy, yaw, target, its receptacle) of n episodes: pick's target is its object, place's
    its goal."""
    env = make_env(skill, seed=0, **fields)
    out = []
    for k in range(n):
        env.reset(seed=100 + k)
        spec, b = env.backend.spec, env.backend
        t = spec.targets[0]
        obj = next(o for o in spec.objects if o.handle == t.handle)
        target, rec = (
            (np.array(t.goal), t.goal_receptacle) if skill == "place" else (np.array(obj.pos), obj.receptacle)
        )
        out.append((spec.layout, np.array(b.base_pose[:2]), b.base_pose[2], target, rec))
    env.close()
    return out


@pytest.mark.parametrize("skill", ["pick", "place"])
def test_habitat2_spawns_next_to_the_target_or_in_front_of_its_container(skill: str) -> None:
    """On open surfaces the base stands within the noise radius (and a cell) of the free cell nearest the
    target, no other free cell much nearer; for the fridge and the drawer it stands in front of the
    furniture, never beside it; it faces the target within the heading noise."""
    fields = {"base_movement": False, "spawn_rule": "habitat2"}
    seen = set()
    for layout, xy, yaw, target, rec in _starts(skill, 40, **fields):
        xs, ys = _free_cells(layout, 0.4)
        if rec in ("fridge", "drawer_0"):
            f = next(
                f
                for f in L.make_layout(layout).furniture
                if f.kind == ("fridge" if rec == "fridge" else "cabinet")
            )
            lx, ly = f.to_local(*xy)
            assert lx > f.spec.depth / 2 and abs(ly) < f.spec.width / 2 + 0.25, (rec, lx, ly)
        else:
            nearest = float(np.min(np.hypot(xs - target[0], ys - target[1])))
            gap = float(np.hypot(*(xy - target[:2])))
            assert gap <= nearest + HABITAT2_NOISE_RADIUS + L.GRID_RES, (rec, gap, nearest)
        seen.add(rec in ("fridge", "drawer_0"))
        off = (math.atan2(target[1] - xy[1], target[0] - xy[0]) - yaw + math.pi) % (2 * math.pi) - math.pi
        assert abs(off) <= 0.5236 + 1e-6
    assert seen == {True, False}, "draw both containers and open surfaces"


def test_habitat2_starts_nearer_than_the_default_rule() -> None:
    """The same place episodes' goals lie nearer the base under Habitat 2.0's spawn than within 1.0 m."""
    near = [float(np.hypot(*(xy - t[:2]))) for _, xy, _, t, _ in _starts("place", 30, spawn_rule="habitat2")]
    wide = [float(np.hypot(*(xy - t[:2]))) for _, xy, _, t, _ in _starts("place", 30, spawn_max_dist=1.0)]
    assert np.mean(near) < np.mean(wide)


def test_habitat2_draws_the_same_goals() -> None:
    """The spawn rule moves only the robot: the same seeds draw the same layouts and goals (a spawn that
    failed near tall furniture and redrew the episode skewed the goals away from the bookshelf)."""
    near = [
        (lay, t.tolist())
        for lay, _, _, t, _ in _starts("place", 30, spawn_rule="habitat2", base_movement=False)
    ]
    wide = [
        (lay, t.tolist()) for lay, _, _, t, _ in _starts("place", 30, spawn_max_dist=1.0, base_movement=False)
    ]
    assert near == wide


def test_default_rule_draws_as_before() -> None:
    """The default rule draws the episodes drawn before the field existed: the first place episode of the
    detour bank (`skills.starts --task place --split train --seed 3200000`, recorded then) again."""
    recorded = json.loads(Path("docs/results/starts/place_detour_train.json").read_text())[0]
    assert recorded["episode_id"] == "place-train-3200000"
    env = make_env("place", split="train", spawn_rule="within")
    env.reset(seed=3_200_000)
    x, y, yaw = env.backend.base_pose
    layout = env.backend.spec.layout
    env.close()
    assert (layout, x, y, yaw) == (
        recorded["layout"],
        recorded["robot"]["x"],
        recorded["robot"]["y"],
        recorded["robot"]["yaw"],
    )


def test_bad_spawn_rule_is_named() -> None:
    with pytest.raises(ValueError, match=r"skill.spawn_rule: 'near'"):
        make_env("place", spawn_rule="near")
    with pytest.raises(ValueError, match=r"skill.spawn_rule: 'habitat2'.*'within'"):
        make_env("nav_to_obj", spawn_rule="habitat2")
    with pytest.raises(ValueError, match=r"skill.spawn_rule: 'navmesh'.*'within' or 'habitat2'"):
        make_env("open_fridge", spawn_rule="navmesh")
    with pytest.raises(ValueError, match=r"skill.spawn_rule: 'habitat2' is not available for close_drawer"):
        make_env("close_drawer", spawn_rule="habitat2")


def _disk_flood(layout: int, x: float, y: float, r: float) -> np.ndarray:
    """The free cells (the largest region) within r of (x, y) joined to the one nearest it inside the
    circle, by breadth-first flood fill."""
    from collections import deque

    from skills.spawn import _largest_component

    main = _largest_component(L.free_space(layout))
    cx = (np.arange(main.shape[0]) + 0.5) * L.GRID_RES
    cy = (np.arange(main.shape[1]) + 0.5) * L.GRID_RES
    d = np.hypot(cx[:, None] - x, cy[None, :] - y)
    start = np.unravel_index(int(np.argmin(np.where(main, d, np.inf))), main.shape)
    inside = main & (d <= r)
    seen = np.zeros_like(main)
    if not inside[start]:
        return seen
    seen[start] = True
    queue = deque([start])
    while queue:
        i, j = queue.popleft()
        for a, b in ((i + 1, j), (i - 1, j), (i, j + 1), (i, j - 1)):
            if 0 <= a < main.shape[0] and 0 <= b < main.shape[1] and inside[a, b] and not seen[a, b]:
                seen[a, b] = True
                queue.append((a, b))
    return seen


def test_navmesh_disk_equals_a_flood_fill() -> None:
    from skills.spawn import _navmesh_disk

    rng = np.random.default_rng(1)
    for layout in (0, 3, 7):
        for _ in range(6):
            x, y = rng.uniform(0.5, 9.5), rng.uniform(0.5, 7.5)
            r = float(rng.uniform(1.0, 3.0))
            assert np.array_equal(_navmesh_disk(layout, x, y, r), _disk_flood(layout, x, y, r))


def test_navmesh_rule_spawns_only_where_the_navmesh_circle_reaches() -> None:
    """Every navmesh-rule start stands on a cell its goal's circle reaches, up to the spawn's position noise
    (0.05 m per axis; 0.25 m allowed: free cells on either side of a wall lie farther apart, the robot's
    radius on each side); the distance rule alone puts some of the same seeds' starts where it does not
    (behind a wall whose doorway lies outside)."""
    from skills.spawn import _navmesh_disk

    def outside(rule: str) -> int:
        n = 0
        for layout, xy, _, goal, _ in _starts("place", 60, spawn_rule=rule, split="heldout"):
            reach = _navmesh_disk(layout, round(float(goal[0]), 4), round(float(goal[1]), 4), 2.0)
            ii, jj = np.nonzero(reach)
            gap = np.min(np.hypot((ii + 0.5) * L.GRID_RES - xy[0], (jj + 0.5) * L.GRID_RES - xy[1]))
            n += bool(gap > 0.25)
        return n

    assert outside("navmesh") == 0
    assert outside("within") > 0
