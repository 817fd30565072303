"""Training curves of the no-base open runs (runs/dev/NAME/metrics.jsonl), per window of env steps: success,
the share of episodes that reached the open target (at_target reward / 5), the opening the joint reward
says they reached (joint reward / 10 m or rad: HAB's 10 x decrease of |joint - target|, summed), the share
that grasped the handle (grasp reward / 5), and mean episode length.

    python docs/results/hab/diagnostics/open_nobase/curves.py [--window 500000] NAME...
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("names", nargs="+")
    ap.add_argument("--window", type=int, default=500_000)
    args = ap.parse_args()
    for name in args.names:
        rows = [json.loads(x) for x in Path(f"runs/dev/{name}/metrics.jsonl").read_text().splitlines()]
        rows = [r for r in rows if "episode/success" in r]
        print(f"{name} ({rows[-1]['env_steps']:,} steps)")
        print("  steps to    success  at target  opening  grasped  length")
        end = args.window
        while rows and end - args.window < rows[-1]["env_steps"]:
            w = [r for r in rows if end - args.window < r["env_steps"] <= end]
            if w:

                def mean(key: str, scale: float = 1.0, w=w) -> float:
                    return sum(r.get(key, 0.0) for r in w) / len(w) / scale

                print(
                    f"  {min(end, rows[-1]['env_steps']):>9,}  {mean('episode/success'):7.2f}"
                    f"  {mean('episode/return/at_target', 5):9.2f}  {mean('episode/return/joint', 10):7.2f}"
                    f"  {mean('episode/return/grasp_handle', 5):7.2f}  {mean('episode/length'):6.0f}"
                )
            end += args.window


if __name__ == "__main__":
    main()
