"""A place trained with some goal receptacles listed more often is evaluated on the task's own draw."""

from __future__ import annotations

from pathlib import Path

from skills.evaluate import drawn_once, evaluate
from skills.ship import CHECKPOINT_DIR
from tpsrl.engine import checkpoint

MIX = ("kitchen_counter", "fridge", "drawer_0", "fridge", "shelf", "drawer_0")


def test_a_goal_list_with_repeats_draws_each_once_in_its_order() -> None:
    assert drawn_once({"goal_receptacles": MIX, "x": 1}) == {
        "goal_receptacles": ("kitchen_counter", "fridge", "drawer_0", "shelf"),
        "x": 1,
    }
    once = {"goal_receptacles": ("sofa", "fridge")}
    assert drawn_once(once) is once
    assert drawn_once({"x": 1}) == {"x": 1}


def test_an_evaluation_draws_the_episodes_of_the_policy_without_the_repeats(tmp_path: Path) -> None:
    source = CHECKPOINT_DIR / "place_nobase.pt"
    data = checkpoint.read(source)
    goals = tuple(data["meta"]["skill_config"]["goal_receptacles"])
    data["meta"]["skill_config"]["goal_receptacles"] = goals + ("fridge", "drawer_0", "fridge", "drawer_0")
    mixed = tmp_path / "mixed.pt"
    checkpoint.atomic_save(data, mixed)
    plain = evaluate(str(source), 3)
    assert evaluate(str(mixed), 3).episode_set == plain.episode_set
    # the repeats, set explicitly, are drawn as listed: other episodes (what the rule above saves us from)
    repeated = goals + ("fridge",) * 30
    assert evaluate(str(mixed), 3, goal_receptacles=repeated).episode_set != plain.episode_set
