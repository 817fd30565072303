"""Which place episodes need the base to go round something: the detour at the start, and the outcomes.

    python docs/results/hab/diagnostics/place_depth/detours.py 200 1000000,2000000,3000000,4000000 \
        hardrec_s62_800.json [more evaluate --json outputs ...]

(`SPLIT=train` for outputs of `skills.evaluate --split train`; held-out by default.)

The place task's held-out episodes (seed + k, as `skills.evaluate` draws them, default fields): for each,
the detour the base must make at the start (`skills.terms.Detour` to the goal:
its shortest way over the free floor to where the arm reaches the goal, less the straight line; None
where no way is known). Joined with the outcomes of evaluate's JSON outputs of the same sets (their
`outcomes`, and `against.outcomes`), it prints success by detour band for each policy.
"""

from __future__ import annotations

import json
import os
import sys
from collections import defaultdict

import numpy as np

from skills.registry import make_env
from skills.terms import Detour

BANDS = (
    (0.0, 0.25, "straight (< 0.25 m)"),
    (0.25, 1.0, "0.25-1 m"),
    (1.0, np.inf, ">= 1 m"),
    (None, None, "none"),
)


def band(d: float | None) -> str:
    if d is None:
        return "none"
    return next(name for lo, hi, name in BANDS if lo is not None and lo <= d < hi)


def episode_rows(episodes: int, seeds: list[int], split: str = "heldout") -> list[tuple[str, float | None]]:
    """(goal receptacle, detour at the start) of each place episode `seed + k` of `split`, in evaluate's order."""
    env = make_env("place", split=split)
    detour, rows = Detour(), []
    for seed in seeds:
        for k in range(episodes):
            env.reset(seed=seed + k)
            b, spec = env.backend, env.backend.spec
            target = spec.targets[0]
            detour.reset(spec.layout, spec.articulation_dict, np.array(target.goal))
            rows.append((target.goal_receptacle, detour(b.base_pose[:2])))
    env.close()
    return rows


def detours(episodes: int, seeds: list[int], split: str = "heldout") -> list[float | None]:
    return [d for _, d in episode_rows(episodes, seeds, split)]


def outcomes(paths: list[str]) -> dict[str, list[bool]]:
    """Each policy's per-episode outcomes in evaluate `--json` outputs, its `against` policy's too. A policy
    that acted otherwise (sampled, `noise_scale`) is its own row; one named twice with other outcomes
    (another machine's run) too, numbered, rather than one silently replacing the other."""
    policies: dict[str, list[bool]] = {}

    def add(d: dict, sampled: bool, scale: float) -> None:
        name = d["policy"] + (f" (sampled x{scale:g})" if sampled else "")
        key, n = name, 1
        while key in policies and policies[key] != d["outcomes"]:
            n += 1
            key = f"{name} #{n}"
        policies[key] = d["outcomes"]

    for path in paths:
        d = json.load(open(path))
        add(d, d.get("sampled", False), d.get("noise_scale", 1.0))
        if "against" in d:
            add(d["against"], d.get("sampled", False), d.get("noise_scale", 1.0))
    return policies


def main(argv: list[str]) -> None:
    episodes, seeds = int(argv[0]), [int(s) for s in argv[1].split(",")]
    rows = detours(episodes, seeds, os.environ.get("SPLIT", "heldout"))
    policies = outcomes(argv[2:])
    counts: dict[str, int] = defaultdict(int)
    for d in rows:
        counts[band(d)] += 1
    print(f"{'policy':60s} " + "  ".join(f"{name} ({counts[name]})" for *_, name in BANDS))
    for name, ends in policies.items():
        assert len(ends) == len(rows), f"{name}: {len(ends)} outcomes for {len(rows)} episodes"
        ok: dict[str, int] = defaultdict(int)
        for d, o in zip(rows, ends, strict=True):
            ok[band(d)] += o
        cells = [f"{100 * ok[n] / counts[n]:.1f}%" if counts[n] else "-" for *_, n in BANDS]
        print(
            f"{name:60s} "
            + "  ".join(
                f"{c:>{len(n) + 3 + len(str(counts[n]))}s}" for c, (*_, n) in zip(cells, BANDS, strict=True)
            )
        )


if __name__ == "__main__":
    main(sys.argv[1:])
