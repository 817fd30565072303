"""Where a HAB run's place calls fail, and which object a place call knocked off.

    python docs/results/hab/diagnostics/place_nobase_navstops/knocks.py docs/results/hab/earlier/tidy_house-tp_srl_nobase-0024-place-nobase-gentle

Counts a run's place calls by failure, the episodes that place ended by knocking an object off, and, for
each knocking call, whether the object knocked off is the one being placed.
"""

import json
import sys
from collections import Counter
from pathlib import Path


def main(run: str) -> None:
    rows = [json.loads(line) for line in (Path(run) / "results.jsonl").open()]
    calls, knocks, ending = Counter(), Counter(), Counter()
    for row in rows:
        if row["failed_skill"] == "place" and row["failure"] == "knocked_off":
            ending["episodes ended by a place knock"] += 1
        for call in row["skills"]:
            if call["skill"] != "place":
                continue
            placed = call["target"].split("(")[1].split(",")[0]
            outcome = call["failure"] or "done"
            calls[outcome] += 1
            for handle in call["knocked"]:
                knocks[(outcome, "placed object" if handle == placed else "another object")] += 1
    print(f"{run}: {len(rows)} episodes; {dict(ending)}")
    print(f"place calls by failure: {dict(calls)}")
    print("objects knocked off by place calls (call's failure, which object):")
    for key, n in knocks.most_common():
        print(f"  {key}: {n}")


if __name__ == "__main__":
    main(sys.argv[1])
