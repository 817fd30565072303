"""Random actions over random layouts never make the physics explode (fast sample; long run is `slow`)."""

from __future__ import annotations

import numpy as np
import pytest

from tpsrl.sim.backend import DepthSettings
from tpsrl.sim.env import EnvConfig, RearrangeEnv


def _unstable_steps(seed: int, steps: int) -> int:
    env = RearrangeEnv(
        EnvConfig(
            depth=DepthSettings(mode="none"),
            observations=("joint", "is_holding"),
            clutter=(10, 10),
            max_steps=300,
        )
    )
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    bad = 0
    for _ in range(steps):
        a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        a[-1] = -1.0
        _, _, term, trunc, info = env.step(a)
        bad += bool(info.get("physics_unstable"))
        if term or trunc:
            env.reset()
    env.close()
    return bad


def test_random_actions_stay_stable() -> None:
    assert _unstable_steps(0, 1500) == 0


@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_actions_stay_stable_long(seed: int) -> None:
    assert _unstable_steps(seed, 10_000) == 0


@pytest.mark.parametrize("obj", ["apple", "banana"])
def test_a_nudged_round_object_stops_on_its_table(obj: str) -> None:
    """Objects' contacts resist rolling (scene.OBJECT_CONDIM): a sphere or a capsule on its side, nudged
    at 0.3 m/s along the dining table, stops within 0.25 m. With sliding friction alone (condim 3) the
    apple rolled off the table within the 3 s."""
    from tpsrl.sim.episode import EpisodeSpec, ObjectPlacement, RobotStart
    from tpsrl.sim.mujoco.backend import MujocoBackend
    from tpsrl.sim.mujoco.layout import make_layout, receptacles
    from tpsrl.sim.mujoco.objects import object_type

    table = receptacles(make_layout(0))["dining_table"]
    cx, cy, z = table.center
    t = object_type(obj)
    sim = MujocoBackend(DepthSettings(mode="none"))
    sim.reset(
        EpisodeSpec(
            layout=0,
            robot=RobotStart(2.0, 4.0, 0.0),
            objects=(ObjectPlacement(obj, obj, (cx, cy, z + t.half_height + 0.002)),),
        )
    )
    for _ in range(30):  # settle
        sim.step()
    start = sim.object_pos(obj)
    dof = sim.model.jnt_dofadr[sim.model.joint(f"obj:{obj}").id]
    sim.data.qvel[dof + 1] = 0.3  # across the table (its short side runs along y here)
    for _ in range(90):  # 3 s
        sim.step()
    end = sim.object_pos(obj)
    assert end[2] > z, f"{obj} fell off the table: z {end[2]:.3f}"
    assert np.linalg.norm(end[:2] - start[:2]) < 0.25
    assert np.linalg.norm(sim.data.qvel[dof : dof + 3]) < 0.02  # at rest
