"""A policy file with some action outputs' exploration noise set lower (a start point for a fine-tune).

    python docs/results/hab/diagnostics/place_updates/lower_std.py skills/checkpoints/place.pt \
        runs/dev/place_std1_start.pt 0,1,2,3 -1.0

Copies SOURCE (a policy file) to OUT (which must not exist) with `log_std[i] = VALUE` for each listed
output i (place: 0-2 the end-effector step, 3 the grip, 4-5 the base). Nothing else changes: the mean
action, and so what the policy does when evaluated, is the source's.
"""

from __future__ import annotations

import sys
from pathlib import Path

import torch


def main(source: str, out: str, dims: str, value: str) -> None:
    if Path(out).exists():
        raise SystemExit(f"{out} exists: choose a new file")
    ckpt = torch.load(source, map_location="cpu", weights_only=False)
    log_std = ckpt["model"]["log_std"]
    index = [int(i) for i in dims.split(",")]
    bad = [i for i in index if not 0 <= i < len(log_std)]
    if bad:
        raise SystemExit(f"dims {bad} outside 0..{len(log_std) - 1} ({source} has {len(log_std)} outputs)")
    print("log_std before", [round(float(v), 3) for v in log_std])
    log_std[index] = float(value)
    print("log_std after ", [round(float(v), 3) for v in log_std])
    torch.save(ckpt, out)


if __name__ == "__main__":
    if len(sys.argv) != 5:
        raise SystemExit(__doc__)
    main(*sys.argv[1:])
