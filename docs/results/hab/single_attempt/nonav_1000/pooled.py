"""NoNav's single-attempt first pick pooled over seeds, each pick against the first, episode by episode.

    python docs/results/hab/single_attempt/nonav_1000/pooled.py docs/results/hab/single_attempt/nonav_1000/{pick_16envs,pick_depth_lstm_far,pick_lstm8m_ft,pick_depth_near,pick_envs32,pick_envs32_s1,pick_envs32_s2,pick_16envs_s1}
    python docs/results/hab/single_attempt/nonav_1000/pooled.py docs/results/hab/single_attempt/nonav_fresh/{pick_16envs,pick_envs32,pick_16envs_sampled,pick_envs32_sampled}

`pick_16envs` is the pick shipped from 2026-11-26 to 2026-12-02 (16 envs per rollout), `pick_envs32` the
one shipped since (32); `_s1`, `_s2` are other training seeds. The 32-env pick was chosen on seeds 0-9
(`nonav_1000/`) among the others there; `nonav_fresh/` holds seeds 10-19, run after the choice
(`*_sampled`: with `chain.sample=true`, actions sampled as habitat-baselines evaluates; `*_noise03`:
also `chain.noise_scale=0.3`; in `nonav_1000/` these hold seeds 0-4 only, but `pick_ranges_s2_sampled`
0-9: folders compared must hold the same seeds). In `nonav_fresh/`, `pick_envs32_cap<R>` is the shipped
pick with its object sensor capped at R m and `pick_ensemble3` the mean-action ensemble of the preset's
three seeds (`docs/results/hab/diagnostics/pick_variants/variants.py`; the other caps seeds 10-14), and
`pick_envs32_steps300` the shipped pick given 300 steps per call (`chain.skill_steps=300`, seeds 10-14).

Each folder holds `seed<k>/results.jsonl` of `tpsrl-eval scenario=tidy_house agent=tp_srl_nonav episodes=100
seed=<k> processes=1 chain.max_replans=0 chain.sample_retries=false chain.reapproach_retries=false
[checkpoints=pick:<file>]` (its `config.json` beside it). Prints the first pick's success with a 95% Wilson
interval, and the episodes each of two picks alone picked with an exact McNemar p.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from skills.evaluate import mcnemar, wilson_interval


def first_picks(folder: Path) -> dict[str, bool]:
    """Episode id -> whether the first pick succeeded, over every `seed*/results.jsonl` in `folder`."""
    out = {}
    for path in sorted(folder.glob("seed*/results.jsonl")):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            out[row["episode_id"]] = bool(row["stage_success"][0])
    return out


def main(folders: list[str]) -> None:
    base = first_picks(Path(folders[0]))
    for folder in folders:
        runs = first_picks(Path(folder))
        if runs.keys() != base.keys():
            raise SystemExit(f"{folder} holds other episodes than {folders[0]}")
        k, n = sum(runs.values()), len(runs)
        lo, hi = wilson_interval(k, n)
        line = f"{folder}: first pick {k} of {n}, {100 * k / n:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]"
        if folder != folders[0]:
            episodes = sorted(base)
            gained, lost, p = mcnemar([runs[e] for e in episodes], [base[e] for e in episodes])
            line += f"; against the first: {gained} / {lost}, p {p:.2g}"
        print(line)


if __name__ == "__main__":
    main(sys.argv[1:])
