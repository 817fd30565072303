"""Runs and shipped skills from before a config field existed keep loading and resuming: every field a
shipped checkpoint lacks has the value it was trained with in its config's `LEGACY`."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from skills.registry import legacy_values
from skills.train import skill_meta

SHIPPED = sorted(Path("skills/checkpoints").glob("*.pt"))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_field_a_shipped_skill_predates_has_its_legacy_value(path: Path) -> None:
    meta = torch.load(path, weights_only=False)["meta"]
    today = skill_meta({"name": meta["skill"]})["skill_config"]
    lacking = set(today) - set(meta["skill_config"]) - set(legacy_values(meta["skill"]))
    assert not lacking, f"{path.name} predates {sorted(lacking)}: add them to the config's LEGACY"


def test_legacy_values_merge_down_the_config_hierarchy() -> None:
    assert legacy_values("pick") == {
        "arm_control": "joint",
        "spawn_clearance": 0.4,
        "near_furniture_prob": 0.0,
        "odometry": False,
        "path_compass": False,
        "contact": False,
        "ranges": False,
        "shift_sensor": False,
        "top_sensor": False,
        "grip_init_mean": 0.0,
        "arm_start_noise": 0.0,
        "force_measure": "sum",
        "spawn_rule": "within",
        "object_types": None,
        "grasp": "contact",
        "arm_speed": "capped",
        "start_bank": "",
        "start_bank_prob": 0.0,
        "arm_out_penalty": 0.0,
        "arm_out_dist": 1.5,
        "detour_reward": False,
    }
    assert legacy_values("place")["start_bank"] == "" and legacy_values("place")["settle_speed"] == 0.0
    assert legacy_values("nav_to_obj")["geodesic"] is False
    drawer = legacy_values("open_drawer")
    assert drawer["release_reward"] == 0.0 and drawer["joint_state_obs"] is False
    assert drawer["spawn_clearance"] == 0.4
