"""Stage-wise success (counted, in order), summaries with Wilson intervals, result round trip."""

from __future__ import annotations

import numpy as np

from evaluation.episodes import generate_episodes
from evaluation.metrics import EpisodeResult, SkillRecord, StageTracker, stages_of, summarize, summary_table


class FakeBackend:
    def __init__(self, spec):
        self.held = None
        self.pos = {o.handle: np.array(o.pos) for o in spec.objects}
        self.arts = dict(spec.articulation_dict)

    def object_pos(self, h):
        return self.pos[h]

    def articulation(self, name):
        return self.arts.get(name, 0.0)


def test_set_table_stage_names():
    spec = generate_episodes("set_table", 1)[0]
    names = [s.name for s in stages_of(spec)]
    assert names == ["open_drawer_0", "pick_1", "place_1", "open_fridge", "pick_2", "place_2"]


def test_tracker_counts_objects_in_any_order_and_in_sequence():
    spec = generate_episodes("set_table", 1)[0]
    b = FakeBackend(spec)
    tr = StageTracker(spec)
    fruit = spec.targets[1]
    b.arts["fridge"] = 1.5  # fridge opened first, drawer never
    tr.update(b, 1)
    b.held = fruit.handle
    tr.update(b, 2)
    b.held, b.pos[fruit.handle] = None, np.array(fruit.goal)
    tr.update(b, 3)
    assert tr.first == {"open_fridge": 1, "pick_1": 2, "place_1": 3}
    # the drawer (first stage) was never opened: nothing counts in order
    assert tr.success() == [False] * 6
    b.arts["drawer_0"] = 0.45
    tr.update(b, 4)
    assert tr.success() == [True, True, True, True, False, False]


def _result(i, ok, stages, failed=None, cause=None, replans=0):
    return EpisodeResult(
        i,
        f"e{i}",
        3,
        "set_table",
        "tp_spa",
        ok,
        ok,
        ok,
        100,
        ["a", "b"],
        stages,
        {},
        12,
        replans,
        failed,
        cause,
        skills=[SkillRecord("pick", "pick(obj0)", 10, True)],
    )


def test_summary_and_round_trip():
    rs = [_result(0, True, [True, True], replans=1), _result(1, False, [True, False], "pick", "timeout")]
    s = summarize(rs)
    assert s["full_success"]["rate"] == 0.5 and 0.0 < s["full_success"]["lo"] < 0.5 < s["full_success"]["hi"]
    assert [x["rate"] for x in s["stage"]] == [1.0, 0.5]
    assert s["failures"] == {"pick/timeout": 1} and s["rescued_by_replanning"] == 1
    assert "FULL TASK" in summary_table(s)
    assert EpisodeResult.from_dict(rs[1].to_dict()) == rs[1]
