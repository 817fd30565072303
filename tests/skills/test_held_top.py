"""`held_top` (skill.top_sensor, not a HAB sensor): from the held target's centre to the middle of its top,
in the base frame: which way the held object leans and how tall it is."""

from __future__ import annotations

import numpy as np
import pytest

from skills.registry import make_env
from tpsrl.sim.mujoco.objects import object_type
from tpsrl.sim.sensors import SENSORS, SensorContext


def test_held_top_reads_the_held_objects_lean_and_height_in_the_base_frame() -> None:
    env = make_env("place", split="heldout", base_movement=False, arm_control="ee", top_sensor=True)
    assert env.cfg.observations[-1] == "held_top"
    rng = np.random.default_rng(0)
    leaned = []
    for seed in range(4):
        obs, _ = env.reset(seed=seed)
        b = env.backend
        handle = b.spec.targets[0].handle
        half = object_type(next(o.type for o in b.spec.objects if o.handle == handle)).half_height
        # the object starts upright in the gripper (its spawn orientation): its top straight above its centre
        np.testing.assert_allclose(obs["held_top"], [0.0, 0.0, half], atol=1e-3)
        for _ in range(30):  # the arm reaches up and out; held, the object is read through the base frame
            action = np.zeros(env.action_space.shape, np.float32)
            action[env._slices["arm_ee_action"]] = [0.6, rng.uniform(-0.3, 0.3), 1.0]
            action[env._slices["grip_action"]] = 1.0
            obs, *_ = env.step(action)
            centre = b.object_pos(handle)
            top = centre + b.data.xmat[b._obj_body[b._handle_index[handle]]].reshape(3, 3)[:, 2] * half
            expected = b.world_to_base(top[None])[0] - b.world_to_base(centre[None])[0]
            np.testing.assert_allclose(obs["held_top"], expected, atol=1e-5)
            assert np.linalg.norm(obs["held_top"]) == pytest.approx(half, rel=1e-4)
        leaned.append(np.degrees(np.arccos(obs["held_top"][2] / half)))
        release = np.zeros(env.action_space.shape, np.float32)
        release[env._slices["grip_action"]] = -1.0
        obs, *_ = env.step(release)
        assert b.held is None and not obs["held_top"].any()
    assert min(leaned) > 10.0  # reaching up tilts what the gripper holds back, and the sensor shows it
    env.close()


class _HoldingHandle:
    held = "drawer_0"

    def object_top(self, handle: str) -> np.ndarray:
        raise KeyError(handle)


def test_held_top_reads_nothing_while_a_handle_is_held() -> None:
    ctx = SensorContext(targets=["obj0"], goals=np.zeros((1, 3)), nav_goal=None, max_depth=10.0, n_targets=1)
    assert not SENSORS["held_top"].read(_HoldingHandle(), ctx).any()
