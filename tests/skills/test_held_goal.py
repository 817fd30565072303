"""`held_goal_sensor`: the goal read from the held object's centre, as HAB's grasp makes obj_goal_sensor
read; s103 (an LSTM) renamed to read it; the shipped place reads it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch

from skills.config import task_fields
from skills.learned import load_skill_policy
from skills.registry import make_env
from skills.ship import CHECKPOINT_DIR
from skills.warmstart import renamed_sensor
from tpsrl.engine import checkpoint
from tpsrl.sim.mujoco.objects import object_type

BOTH = ["obj_goal_sensor", "held_goal_sensor", "joint", "is_holding", "relative_resting_position"]
S103 = (
    Path(__file__).parents[2] / "docs/results/runs/place_w256_shut_goals_s103/place.pt"
)  # reads obj_goal_sensor


def test_the_goal_is_read_from_the_held_object_until_it_is_let_go() -> None:
    env = make_env("place", observations=BOTH, split="heldout", base_movement=False)
    hanging = []
    for seed in range(6):
        obs, _ = env.reset(seed=seed)
        b, spec = env.backend, env.backend.spec
        target = spec.targets[0]
        goal, obj = np.array(target.goal), b.object_pos(target.handle)
        assert b.held == target.handle
        np.testing.assert_allclose(obs["obj_goal_sensor"], b.world_to_ee(goal), atol=1e-5)
        np.testing.assert_allclose(
            obs["held_goal_sensor"], b.world_to_ee(goal) - b.world_to_ee(obj), atol=1e-5
        )
        # the object hangs under the cup, its centre at least its half height from the end effector
        offset = float(np.linalg.norm(obs["obj_goal_sensor"] - obs["held_goal_sensor"]))
        kind = next(o.type for o in spec.objects if o.handle == target.handle)
        assert offset >= object_type(kind).half_height
        hanging.append(offset)
        release = np.zeros(env.action_space.shape, np.float32)
        release[env._slices["grip_action"]] = -1.0
        obs, *_ = env.step(release)
        assert b.held is None
        np.testing.assert_allclose(obs["held_goal_sensor"], obs["obj_goal_sensor"], atol=1e-6)
    assert max(hanging) - min(hanging) > 0.02  # it differs from object to object: unseen by obj_goal_sensor
    env.close()


def test_a_renamed_lstm_place_acts_on_the_new_sensor_as_on_the_old(tmp_path: Path) -> None:
    out = renamed_sensor(S103, tmp_path / "held.pt", "obj_goal_sensor", "held_goal_sensor")
    data, source_model = checkpoint.read(out), checkpoint.read(S103)["model"]
    assert data["meta"]["skill_config"]["observations"][0] == "held_goal_sensor"
    assert torch.equal(
        data["model"]["obs_norm.held_goal_sensor.mean"], source_model["obs_norm.obj_goal_sensor.mean"]
    )
    source, renamed = load_skill_policy(S103), load_skill_policy(out)
    env = make_env("place", **{**task_fields(source.config), "observations": BOTH, "split": "heldout"})
    obs, _ = env.reset(seed=3)
    source.reset(env)
    renamed.reset(env)
    for _ in range(15):  # the renamed policy fed the old sensor's readings under the new name: same actions
        plain = {k: v for k, v in obs.items() if k != "held_goal_sensor"}
        fed = {
            **{k: v for k, v in plain.items() if k != "obj_goal_sensor"},
            "held_goal_sensor": obs["obj_goal_sensor"],
        }
        a, b = source.act(plain, env), renamed.act(fed, env)
        np.testing.assert_allclose(a, b, atol=1e-5)
        obs, _, term, trunc, _ = env.step(a)
        if term or trunc:
            break
    env.close()


def test_the_shipped_place_reads_the_goal_from_the_held_object() -> None:
    meta = checkpoint.read(CHECKPOINT_DIR / "place.pt")["meta"]["skill_config"]
    assert "held_goal_sensor" in meta["observations"] and "obj_goal_sensor" not in meta["observations"]
