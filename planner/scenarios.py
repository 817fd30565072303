"""The three HAB scenarios as episode descriptions, with any number of distractor objects.

Reference plan lengths with navigation (hab-reference.md, "HAB scenarios"): Tidy House with 5 objects
20 skill calls, Prepare Groceries 12, Set Table 12 (open drawer and open fridge before the picks from
them). Distractors sit on surfaces and inside the fridge and drawers; the goal never mentions them.
"""

from __future__ import annotations

from collections.abc import Callable

from planner.episode import Episode, GoalSpec, ObjectSpec, ReceptacleSpec

__all__ = [
    "REFERENCE_PLAN_LENGTHS",
    "SCENARIOS",
    "get_scenario",
    "prepare_groceries",
    "set_table",
    "tidy_house",
]


def _distractors(n: int, receptacles: list[str]) -> list[ObjectSpec]:
    # Every third distractor goes inside a receptacle, the rest on surfaces: both kinds must be pruned.
    spots: list[str | None] = [None, None, *receptacles] if receptacles else [None]
    return [ObjectSpec(f"distractor_{i}", start=spots[i % len(spots)]) for i in range(n)]


def _receptacles(fridge_open: bool, drawer_open: bool) -> tuple[ReceptacleSpec, ...]:
    return (
        ReceptacleSpec("fridge", "fridge", opened=fridge_open),
        ReceptacleSpec("kitchen_drawer", "drawer", opened=drawer_open),
    )


def tidy_house(n_objects: int = 5, n_distractors: int = 20) -> Episode:
    """Objects from where they lie to their goal; one starts in the (already open) drawer."""
    objects = [
        ObjectSpec(f"object_{i}", start="kitchen_drawer" if i == 0 else None, goal=f"object_{i}_goal")
        for i in range(n_objects)
    ]
    goals = [GoalSpec(f"object_{i}_goal") for i in range(n_objects)]
    return Episode(
        objects=tuple(objects + _distractors(n_distractors, ["fridge", "kitchen_drawer"])),
        goals=tuple(goals),
        receptacles=_receptacles(fridge_open=False, drawer_open=True),
        name="tidy_house",
    )


def prepare_groceries(n_distractors: int = 20) -> Episode:
    """Two groceries from the counter into the (open) fridge, one from the fridge to the counter."""
    objects = [
        ObjectSpec("cereal_box", goal="fridge_shelf_0"),
        ObjectSpec("milk_carton", goal="fridge_shelf_1"),
        ObjectSpec("apple", start="fridge", goal="counter_spot"),
    ]
    goals = [
        GoalSpec("fridge_shelf_0", receptacle="fridge"),
        GoalSpec("fridge_shelf_1", receptacle="fridge"),
        GoalSpec("counter_spot"),
    ]
    return Episode(
        objects=tuple(objects + _distractors(n_distractors, ["fridge", "kitchen_drawer"])),
        goals=tuple(goals),
        receptacles=_receptacles(fridge_open=True, drawer_open=False),
        name="prepare_groceries",
    )


def set_table(n_distractors: int = 20) -> Episode:
    """A bowl from the closed drawer and a fruit from the closed fridge, both to the table."""
    objects = [
        ObjectSpec("bowl", start="kitchen_drawer", goal="table_bowl_spot"),
        ObjectSpec("fruit", start="fridge", goal="table_fruit_spot"),
    ]
    goals = [GoalSpec("table_bowl_spot"), GoalSpec("table_fruit_spot")]
    return Episode(
        objects=tuple(objects + _distractors(n_distractors, ["fridge", "kitchen_drawer"])),
        goals=tuple(goals),
        receptacles=_receptacles(fridge_open=False, drawer_open=False),
        name="set_table",
    )


#: Scenario name -> episode builder taking ``n_distractors``.
SCENARIOS: dict[str, Callable[..., Episode]] = {
    "tidy_house": tidy_house,
    "prepare_groceries": prepare_groceries,
    "set_table": set_table,
}

#: Optimal plan lengths (skill calls) with navigation, from the reference; NoNav plans drop the navs.
REFERENCE_PLAN_LENGTHS: dict[str, int] = {"tidy_house": 20, "prepare_groceries": 12, "set_table": 12}


def get_scenario(name: str, n_distractors: int = 20) -> Episode:
    """The episode of scenario ``name`` with ``n_distractors`` distractor objects."""
    if name not in SCENARIOS:
        raise KeyError(f"unknown scenario {name!r}; known: {sorted(SCENARIOS)}")
    return SCENARIOS[name](n_distractors=n_distractors)
