"""What a place policy's timeouts do when the goal is in one receptacle (`timeouts/place_timeouts.py`'s
trace and summary, with the task's goals drawn from that receptacle only).

    python docs/results/hab/diagnostics/place_updates/receptacle_timeouts.py drawer_0 skills/checkpoints/place.pt 100 > drawer.jsonl
    python docs/results/hab/diagnostics/timeouts/place_timeouts.py --summary drawer.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timeouts"))
import place_timeouts  # noqa: E402  (beside timeouts/pick_timeouts.py, which it imports)

from skills.episodes import ALL_RECEPTACLES  # noqa: E402

if __name__ == "__main__":
    if len(sys.argv) != 4:
        raise SystemExit(__doc__)
    receptacle, policy, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    if receptacle not in ALL_RECEPTACLES:
        raise SystemExit(f"receptacle {receptacle!r} unknown; one of {list(ALL_RECEPTACLES)}")
    place_timeouts.FIELDS["goal_receptacles"] = (receptacle,)
    place_timeouts.trace(policy, count)
