"""Two HAB evaluation runs compared episode by episode (the same episode set, two agents or checkpoints).

    python -m evaluation.compare runs/eval_new docs/results/hab/tidy_house-tp_srl-0016

Reads each run directory's `results.jsonl` (`tpsrl-eval`), keeps the episodes both finished (by index),
and prints for each run the full success with its 95% Wilson interval, the stage success rates and the
most common failures, then the episodes only the first run succeeded in (gained), only the second
(lost), and the exact McNemar p-value. `--json` ends the output with one JSON line.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from evaluation.metrics import EpisodeResult
from evaluation.run import finished_results
from skills.evaluate import mcnemar, wilson_interval


class CompareError(ValueError):
    """Run directories that cannot be compared (missing results, other scenarios, no common episodes)."""


def _read(run_dir: str | Path) -> dict[int, EpisodeResult]:
    if not (Path(run_dir) / "results.jsonl").is_file():
        raise CompareError(f"{run_dir}: no results.jsonl (not a tpsrl-eval run directory?)")
    return finished_results(Path(run_dir))


def _side(records: list[EpisodeResult]) -> dict[str, Any]:
    n = len(records)
    full = sum(r.full_success for r in records)
    low, high = wilson_interval(full, n)
    failures = Counter(f"{r.failed_skill}/{r.failure}" for r in records if not r.full_success)
    return {
        "full_success": full / n,
        "ci": [low, high],
        "stages": {
            s: sum(r.stage_success[i] for r in records) / n for i, s in enumerate(records[0].stage_names)
        },
        "failures": dict(failures.most_common(5)),
    }


def compare(a_dir: str | Path, b_dir: str | Path) -> dict[str, Any]:
    """The paired comparison of two run directories (see the module's doc)."""
    a, b = _read(a_dir), _read(b_dir)
    common = sorted(set(a) & set(b))
    if not common:
        raise CompareError(f"{a_dir} and {b_dir} have no finished episode in common")
    ids = {(a[i].episode_id, b[i].episode_id) for i in common}
    differ = [pair for pair in ids if pair[0] != pair[1]]
    if differ:
        raise CompareError(
            f"episode {differ[0][0]!r} of {a_dir} is {differ[0][1]!r} in {b_dir}: another episode set"
        )
    gained, lost, p = mcnemar([a[i].full_success for i in common], [b[i].full_success for i in common])
    return {
        "episodes": len(common),
        "a": {"run": str(a_dir), **_side([a[i] for i in common])},
        "b": {"run": str(b_dir), **_side([b[i] for i in common])},
        "gained": gained,
        "lost": lost,
        "mcnemar_p": p,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.compare", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("a", help="a tpsrl-eval run directory")
    parser.add_argument("b", help="another run directory on the same episodes")
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)
    try:
        r = compare(args.a, args.b)
    except CompareError as e:
        parser.error(str(e))
    for key in ("a", "b"):
        s = r[key]
        stages = ", ".join(f"{k} {v:.0%}" for k, v in s["stages"].items())
        print(
            f"{s['run']}: full success {s['full_success']:.0%} [95% CI {s['ci'][0]:.0%}, {s['ci'][1]:.0%}] "
            f"over {r['episodes']} episodes; stages {stages}; failures {s['failures']}"
        )
    print(
        f"paired: {r['a']['run']} alone succeeded in {r['gained']}, {r['b']['run']} alone in {r['lost']}; "
        f"exact McNemar p = {r['mcnemar_p']:.3f}"
    )
    if args.json:
        print(json.dumps(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
