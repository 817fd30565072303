"""Diagnostic of 2026-11-24 (the run in this folder): `tpsrl-train` with the workers acting on the weights
of one update before, collection and learning in turn. The policy lag of `engine.overlap_learning`
without its concurrency; rollouts are marked lagged, so PPO learns them with the decoupled objective as
in overlap mode. Run from the repository root:

    python docs/results/runs/pick_lag_s1/lagtest.py skill=pick run.seed=1 run.total_steps=1000000 \
        run.dir=runs/skills/pick/lag_s1 run.wandb=disabled run.progress=false run.torch_threads=1

(A resume publishes the current weights once before the lag starts again.)
"""

from __future__ import annotations

import sys
from typing import Any

from tpsrl.engine import acting
from tpsrl.engine.acting import ActingCollector, flat_state

_previous: dict[str, Any] = {}
_gather = ActingCollector._gather


def _publish_lagged(self: ActingCollector) -> None:
    current = flat_state(self.policy).numpy().copy()
    published = _previous.get("weights", current)
    _previous["weights"] = current
    self.control[acting._VERSION] += 1
    self.weights[:] = published
    self.control[acting._VERSION] += 1


def _gather_lagged(self: ActingCollector, summaries: list[dict[str, Any]]) -> Any:
    rollout = _gather(self, summaries)
    rollout.lagged = True
    return rollout


ActingCollector._publish = _publish_lagged  # type: ignore[method-assign]
ActingCollector._gather = _gather_lagged  # type: ignore[method-assign]

if __name__ == "__main__":  # the worker processes import this file again: only the trainer trains
    from skills.train import main

    sys.exit(main())
