"""`tpsrl-bench <name>`: one entry point for every benchmark in the repo.

Each benchmark lives next to the code it measures and exposes `main(argv) -> int`.
"""

from __future__ import annotations

import importlib
import sys

# name -> module holding `main(argv)`; imported lazily so one benchmark's deps never load another's.
BENCHMARKS: dict[str, str] = {
    "sim": "tpsrl.sim.bench",
    "engine": "tpsrl.engine.bench",
    "train": "tpsrl.engine.bench_train",
    "learn": "tpsrl.engine.bench_learn",
    "planner": "planner.bench",
    "skills": "skills.bench",
}


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(f"usage: tpsrl-bench {{{','.join(BENCHMARKS)}}} [--quick] [--json] ...")
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in BENCHMARKS:
        print(f"tpsrl-bench: unknown benchmark {name!r}; known: {sorted(BENCHMARKS)}", file=sys.stderr)
        return 2
    module = importlib.import_module(BENCHMARKS[name])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
