"""The shipped no-base place (s139) from Habitat 2.0's per-skill spawn over every set of 800 held-out episodes
it was evaluated on there and never chosen on, pooled (sixty-fourth session).

    python docs/results/hab/diagnostics/place_nobase_h2mix/pooled.py

Each set's outcomes come from the evaluate JSON that holds them (s139's own, or the `against` of another
policy's evaluation on the same episodes); the pooled rate carries a Wilson 95% interval.
"""

from __future__ import annotations

import json
from pathlib import Path

from skills.evaluate import wilson_interval

DIAG = Path(__file__).resolve().parent.parent
SETS = {  # episode seeds: (JSON, field holding s139's outcomes: None for its own)
    "4.8e7-5.1e7": (DIAG / "place_nobase_learner" / "place_nobase_wide256_s169_ft_h2_48e6.json", "against"),
    "5.2e7-5.5e7": (DIAG / "place_nobase_h2" / "place_nobase_h2_52e6.json", None),
    "5.6e7-5.9e7": (
        DIAG / "place_nobase_h2mix" / "place_nobase_h2hard0.8_shut0.25_s182_h2_56e6.json",
        "against",
    ),
    "6.1e7-6.4e7": (DIAG / "place_nobase_h2mix" / "place_nobase_h2_61e6.json", None),
}


def main() -> None:
    placed = total = 0
    for name, (path, field) in SETS.items():
        data = json.loads(path.read_text())
        record = data[field] if field else data
        assert record["policy"].endswith("place_nobase.pt"), (path, record["policy"])
        outcomes = record["outcomes"]
        placed, total = placed + sum(outcomes), total + len(outcomes)
        print(f"{name}  {sum(outcomes):4d} of {len(outcomes)}  {100 * sum(outcomes) / len(outcomes):.2f}%")
    low, high = wilson_interval(placed, total)
    print(
        f"pooled       {placed:4d} of {total}  {100 * placed / total:.2f}% [{100 * low:.1f}, {100 * high:.1f}]"
    )


if __name__ == "__main__":
    main()
