"""How often a place pushes its goal's fridge door or drawer shut (`receptacle_timeouts.py`'s episodes).

    python docs/results/hab/diagnostics/place_shut/pushed_shut.py skills/checkpoints/place.pt fridge 100 > fridge.jsonl
    python docs/results/hab/diagnostics/place_shut/pushed_shut.py --summary fridge.jsonl drawer.jsonl

The place task's held-out episodes from the default evaluation seed with every goal in `receptacle`
(fridge or drawer_0), HAB's place rule and force rule (`timeouts/place_timeouts.py`'s fields; no shut rule). One JSON
line per episode: the outcome, its causes, the receptacle's opening at the start, the least it had during
the episode and at the end (m for a drawer, rad for the door). `--summary`: how many were pushed more
than a quarter of their opening toward closed (`skill.shut_tol=0.25`'s rule), and how those ended.
"""

from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timeouts"))
import place_timeouts  # noqa: E402
from pick_timeouts import episodes  # noqa: E402

from skills.evaluate import failure_causes  # noqa: E402

SHUT = 0.25


def trace(policy: str, receptacle: str, count: int) -> None:
    fields = dict(place_timeouts.FIELDS, goal_receptacles=(receptacle,), shut_tol=0.0)
    for k, env, pol, obs in episodes(policy, count, fields):
        b = env.backend
        start = least = b.articulation(receptacle)
        done = False
        while not done:
            obs, _, terminated, truncated, info = env.step(pol.act(obs, env))
            done = terminated or truncated
            least = min(least, b.articulation(receptacle))
        stats = info["episode_stats"]
        row = {"k": k, "ok": stats.get("success", 0.0) > 0.5, "causes": failure_causes(stats)}
        row.update(start=round(start, 3), least=round(least, 3), end=round(b.articulation(receptacle), 3))
        print(json.dumps(row), flush=True)


def summary(paths: list[str]) -> None:
    for path in paths:
        rows = [json.loads(line) for line in open(path) if line.startswith("{")]
        shut = [r for r in rows if r["start"] - r["least"] > SHUT * r["start"]]
        failed = [r for r in rows if not r["ok"]]
        print(
            f"{path}: {len(rows) - len(failed)} of {len(rows)}; pushed shut (> {SHUT:.0%} of the opening) "
            f"{len(shut)}, of them failed {sum(not r['ok'] for r in shut)} of the {len(failed)} failures"
        )
        print("  failures pushed shut:", dict(Counter(c for r in shut if not r["ok"] for c in r["causes"])))
        print(
            "  failures otherwise:  ", dict(Counter(c for r in failed if r not in shut for c in r["causes"]))
        )


if __name__ == "__main__":
    if len(sys.argv) >= 3 and sys.argv[1] == "--summary":
        summary(sys.argv[2:])
    elif len(sys.argv) == 4:
        trace(sys.argv[1], sys.argv[2], int(sys.argv[3]))
    else:
        raise SystemExit(__doc__)
