"""close_fridge spawns only doors that can be pushed shut (issue 10: unsolvable spawns in some layouts).

Opened wide, the fridge door faces a nearby wall in some layouts (train 1, 16, 17, 24, 28; held-out 15)
and no base position reaches its outer face: those episodes are resampled.
"""

from __future__ import annotations

from skills.articulated import fridge_door_reachable
from skills.registry import make_env
from skills.scripted import make_scripted
from skills.scripted.envs import rollout


def test_wide_open_door_against_a_wall_is_unreachable_and_a_narrow_one_is_not() -> None:
    assert not fridge_door_reachable(15, 1.67)  # held-out layout 15: the door swings toward a wall
    assert fridge_door_reachable(15, 0.82)
    assert fridge_door_reachable(3, 1.67)  # a layout with room in front of the open door


def test_close_fridge_samples_only_reachable_doors_and_the_controller_shuts_them() -> None:
    env = make_env("close_fridge", split="train")
    policy = make_scripted("close_fridge")
    hard = []  # episodes in the layouts that had unsolvable spawns (still sampled, at solvable angles)
    for seed in range(40):
        env.reset(seed=seed)
        b = env.backend
        assert fridge_door_reachable(b.spec.layout, b.articulation("fridge")), b.spec.episode_id
        if b.spec.layout in (1, 16, 17, 24, 28):
            hard.append(seed)
    assert hard
    wins = sum(rollout(env, policy, seed).success for seed in hard)
    assert wins >= 0.6 * len(hard), (wins, hard)  # solvable now; the rest are the controller's misses
