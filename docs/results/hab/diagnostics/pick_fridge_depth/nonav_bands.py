"""NoNav's first pick by how far the robot starts from its object (straight line, in the plane), from the
one-attempt runs `nonav_single.sh` writes (runs/nonav_single/<NAME>/seed<k>/).

    python docs/results/hab/diagnostics/pick_fridge_depth/nonav_bands.py SEEDS NAME...

SEEDS: a glob on the seed folders' numbers, e.g. '3[0-9]' for seeds 30-39.
"""

import glob
import json
import math
import sys

BANDS = [(0, 2), (2, 3), (3, 4), (4, 5), (5, 6), (6, 8), (8, 99)]


def first_picks(name: str, seeds: str) -> list[tuple[float, bool]]:
    """(start distance in m, first pick succeeded) for every episode of NAME's seed folders."""
    rows = []
    for folder in sorted(glob.glob(f"runs/nonav_single/{name}/seed{seeds}")):
        (episodes_file,) = glob.glob(f"{folder}/tidy_house_*.json")
        episodes = {e["episode_id"]: e for e in json.load(open(episodes_file))}
        for line in open(f"{folder}/results.jsonl"):
            result = json.loads(line)
            episode = episodes[result["episode_id"]]
            target = result["skills"][0]["target"][len("pick(") : -1]
            obj = next(o for o in episode["objects"] if o["handle"] == target)
            robot = episode["robot"]
            rows.append(
                (
                    math.hypot(obj["pos"][0] - robot["x"], obj["pos"][1] - robot["y"]),
                    result["stage_success"][0],
                )
            )
    return rows


seeds, names = sys.argv[1], sys.argv[2:]
print(
    "policy".ljust(32)
    + "".join(f"{lo}-{hi} m".ljust(14) for lo, hi in BANDS[:-1])
    + f">= {BANDS[-1][0]} m".ljust(14)
    + "all"
)
for name in names:
    rows = first_picks(name, seeds)
    cells = []
    for lo, hi in BANDS:
        band = [ok for d, ok in rows if lo <= d < hi]
        cells.append(f"{sum(band)}/{len(band)} {100 * sum(band) / max(1, len(band)):.0f}%".ljust(14))
    print(name.ljust(32) + "".join(cells) + f"{sum(ok for _, ok in rows)}/{len(rows)}")
