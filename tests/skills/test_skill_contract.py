"""Contract over every skill: spaces, reset/step, no NaN, episodes end within max steps; bad input."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

from skills.policy import ActionLayout
from skills.registry import TASKS, env_factory, make_env
from skills.spawn import SpawnError
from skills.splits import HELDOUT_LAYOUTS, TRAIN_LAYOUTS

VARIANTS = [(base, depth) for base in (True, False) for depth in (0, 8)]


@pytest.mark.parametrize("skill", sorted(TASKS))
@pytest.mark.parametrize(("base", "depth"), VARIANTS)
def test_skill_contract(skill: str, base: bool, depth: int) -> None:
    if skill == "nav_to_obj" and not base:
        with pytest.raises(ValueError, match="skill.base_movement"):
            make_env(skill, base_movement=base)
        return
    env = make_env(skill, seed=0, base_movement=base, depth=depth, max_steps=15)
    assert ("base_velocity" in ActionLayout.of(env).slices) == base
    assert ("head_depth" in env.observation_space.spaces) == (depth > 0)
    rng = np.random.default_rng(0)
    obs, info = env.reset(seed=2)
    assert info["layout"] in TRAIN_LAYOUTS and env.observation_space.contains(obs)
    for _ in range(16):
        a = rng.uniform(-1, 1, env.action_space.shape).astype(np.float32)
        if "rearrange_stop" in ActionLayout.of(env).slices:
            a[ActionLayout.of(env).slices["rearrange_stop"]] = -1.0
        obs, r, term, trunc, info = env.step(a)
        assert np.isfinite(r) and env.observation_space.contains(obs)
        if term or trunc:
            stats = info["episode_stats"]
            assert {"success", "fail/timeout", "steps"} <= set(stats)
            assert sum(v for k, v in stats.items() if k.startswith("fail/")) == (
                0.0 if stats["success"] else 1.0
            )
            break
    assert term or trunc, "episode did not end within max_steps"
    env.close()


def test_heldout_split_only_samples_heldout_layouts() -> None:
    env = make_env("pick", split="heldout", seed=0)
    assert {env.reset()[1]["layout"] for _ in range(6)} <= set(HELDOUT_LAYOUTS)
    assert len(HELDOUT_LAYOUTS) == 8 and not set(HELDOUT_LAYOUTS) & set(TRAIN_LAYOUTS)


def test_factory_is_picklable_and_rebuilds_the_same_task() -> None:
    f = pickle.loads(pickle.dumps(env_factory("close_drawer", base_movement=False, max_steps=7)))
    env = f()
    assert (
        env.task.name == "close_drawer"
        and env.cfg.max_steps == 7
        and "base_velocity" not in ActionLayout.of(env).slices
    )


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: make_env("fly"), r"skill: unknown skill 'fly'; known: \['close_drawer'"),
        (
            lambda: make_env("pick", observations=("x_ray",)),
            r"skill.observations: unknown observation 'x_ray'",
        ),
        (lambda: make_env("pick", depth=-3), r"skill.depth: -3 not accepted"),
        (
            lambda: make_env("place", grasp="palm"),
            r"skill.grasp: 'palm' not accepted; use one of \['contact'",
        ),
        (lambda: make_env("pick", split="test"), r"skill.split: unknown split 'test'; accepted"),
        (lambda: make_env("pick", colour="red"), r"skill.colour: unknown field for skill 'pick'; accepted"),
        (lambda: make_env("open_drawer", drawers=("drawer_9",)), r"skill.drawers: 'drawer_9' not accepted"),
        (lambda: make_env("nav_to_obj", spawn_clearance=0.2), r"skill.spawn_clearance: 0.2 must be >= 0.3"),
        (lambda: make_env("pick", yaw_noise=-1.0), r"skill.yaw_noise: -1.0 must be >= 0"),
        (
            lambda: make_env("pick", odometry=True, base_movement=False),
            r"skill.odometry: true needs skill.base_movement: true",
        ),
        (
            lambda: make_env("nav_to_obj", near_furniture_prob=1.5),
            r"skill.near_furniture_prob: 1.5 must be in",
        ),
    ],
)
def test_bad_input_names_field_value_and_accepted(call, match: str) -> None:  # noqa: ANN001
    with pytest.raises(ValueError, match=match):
        call()


def test_unsatisfiable_spawn_is_reported_after_bounded_tries() -> None:
    env = make_env("pick", spawn_max_dist=0.05, spawn_tries=3, seed=0)
    with pytest.raises(SpawnError, match=r"skill.spawn_tries.*skill.spawn_max_dist 0.05"):
        env.reset()


def test_nav_starts_at_any_heading_and_nearer_furniture_than_other_skills() -> None:
    """habitat-lab's nav start: a random navigable point and heading; pick keeps facing its object."""
    from skills.terms import heading_error
    from tpsrl.sim.mujoco import layout as L

    def starts(skill: str) -> tuple[np.ndarray, int]:
        env = make_env(skill, seed=0)
        errs, near = [], 0
        for k in range(40):
            env.reset(seed=k)
            b = env.backend
            x, y, _ = b.base_pose
            assert L.is_free(b.spec.layout, x, y, env.task.config.spawn_clearance)
            near += not L.is_free(b.spec.layout, x, y)
            goal = env.task.goal if skill == "nav_to_obj" else b.object_pos(b.spec.targets[0].handle)[:2]
            errs.append(heading_error(b, np.asarray(goal)))
        return np.array(errs), near

    nav, nav_near = starts("nav_to_obj")
    pick, pick_near = starts("pick")
    assert (nav > 1.6).mean() > 0.25 and nav.max() > 2.8  # headings all round (facing away included)
    assert pick.max() < 0.6 and pick_near == 0  # within HAB's 0.5236 rad noise, 0.4 m clear
    assert nav_near > 10  # half the starts (near_furniture_prob 0.5)
