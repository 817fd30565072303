"""A run's first stage by how far the robot starts from its object: where emergent navigation gives out.

    python -m evaluation.start_distance docs/results/hab/single_attempt/nonav_fresh/pick_envs32/seed1*
    python -m evaluation.start_distance <run dir> ... --bins 0,2,4,8 --json
    python -m evaluation.start_distance <run dir> ... --detour 1.15

Pick skills are trained from starts within 2 m of their object (HAB's spawn); in NoNav (`agent=tp_srl_nonav`)
the first pick starts wherever the episode does, often much further. For every episode of the given
`tpsrl-eval` run directories (pooled: name a sweep's seeds together) this takes the planar distance from the
robot's start to the episode's first target object and prints the first stage's success per distance bin,
with 95% Wilson intervals (Set Table's first stage opens the drawer that holds that object). The episode
set is the run's own file (`<scenario>_<n>_seed<k>.json` or its `episodes_file`), or, where only
`config.json` and `results.jsonl` were kept, the same set generated again from the run's scenario, episode
count and seed (it is deterministic; nothing is written).

`--detour R` splits the episodes by how straight their way is: the shortest path over the free floor from
the start to the floor nearest the object (`tpsrl.sim.mujoco.geodesic`, the stand-in for habitat-sim's
navmesh) over the straight line to the object. A way at least R times the line has furniture or a wall
in between, which a skill on state observations cannot see (docs/results.md, thirty-third session).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.episodes import episode_file_name, generate_episodes
from evaluation.run import RunDirError, finished_results, saved_config
from skills.evaluate import wilson_interval
from tpsrl.sim.episode import EpisodeSpec, load_episodes
from tpsrl.sim.mujoco.geodesic import GeodesicDistance

DEFAULT_BINS = (0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0)


class StartDistanceError(ValueError):
    """A run directory without results or episode set, or bins that are not increasing."""


def _episodes(run_dir: Path) -> list[EpisodeSpec]:
    try:
        cfg = saved_config(run_dir)
    except RunDirError as e:
        raise StartDistanceError(str(e)) from None
    if cfg.get("episodes_file"):  # as evaluation.run reads a run's episodes
        if not Path(cfg["episodes_file"]).is_file():
            raise StartDistanceError(f"{run_dir}: its episodes_file {cfg['episodes_file']} is missing")
        return load_episodes(cfg["episodes_file"])
    own = run_dir / episode_file_name(cfg["scenario"], cfg["episodes"], cfg["seed"])
    if own.is_file():
        return load_episodes(own)
    return generate_episodes(cfg["scenario"], cfg["episodes"], cfg["seed"])


def _first_object_xy(spec: EpisodeSpec) -> tuple[float, float]:
    handle = spec.targets[0].handle
    obj = next(o for o in spec.objects if o.handle == handle)
    return obj.pos[0], obj.pos[1]


def start_distance(spec: EpisodeSpec) -> float:
    """Planar distance (m) from the robot's start to the episode's first target object."""
    x, y = _first_object_xy(spec)
    return math.hypot(x - spec.robot.x, y - spec.robot.y)


def detour(spec: EpisodeSpec) -> float | None:
    """The shortest path over the free floor from the robot's start to the floor nearest the first target
    object, over the straight line to it; None where no path reaches it."""
    geo = GeodesicDistance()
    geo.reset(spec.layout, np.array(_first_object_xy(spec), dtype=np.float64))
    path = geo((spec.robot.x, spec.robot.y))
    return None if path is None else path / max(start_distance(spec), 1e-6)


def first_stage(run_dirs: list[Path]) -> list[tuple[float, bool]]:
    """(start distance, first stage reached) for every finished episode of the runs."""
    return [(d, ok) for d, ok, _ in first_stage_specs(run_dirs)]


def first_stage_specs(run_dirs: list[Path]) -> list[tuple[float, bool, EpisodeSpec]]:
    """(start distance, first stage reached, the episode) for every finished episode of the runs."""
    out = []
    for d in run_dirs:
        if not (d / "results.jsonl").is_file():
            raise StartDistanceError(f"{d}: no results.jsonl (not a tpsrl-eval run directory?)")
        results = finished_results(d)
        if not results:
            raise StartDistanceError(f"{d}: no finished episode in results.jsonl")
        specs = _episodes(d)
        for i, r in sorted(results.items()):
            if i >= len(specs) or specs[i].episode_id != r.episode_id:
                raise StartDistanceError(f"{d}: episode {i} ({r.episode_id}) is not in the run's episode set")
            out.append((start_distance(specs[i]), bool(r.stage_success[0]), specs[i]))
    return out


def by_distance(
    pairs: list[tuple[float, bool]], edges: tuple[float, ...] = DEFAULT_BINS
) -> list[dict[str, Any]]:
    """Success per bin [edges[k], edges[k + 1]) (the last bin open above), with a 95% Wilson interval."""
    if not edges or any(b <= a for a, b in zip(edges, edges[1:], strict=False)) or edges[0] < 0:
        raise StartDistanceError(f"bins: {list(edges)} must be increasing distances >= 0")
    rows = []
    for k, lo in enumerate(edges):
        hi = edges[k + 1] if k + 1 < len(edges) else math.inf
        hits = [ok for d, ok in pairs if lo <= d < hi]
        n, s = len(hits), sum(hits)
        ci = wilson_interval(s, n) if n else (0.0, 0.0)
        rows.append(
            {"from_m": lo, "to_m": hi, "episodes": n, "success": s / n if n else None, "ci": list(ci)}
        )
    return rows


def _json_bins(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [{**r, "to_m": None if math.isinf(r["to_m"]) else r["to_m"]} for r in rows]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m evaluation.start_distance", description=__doc__.split("\n\n")[0]
    )
    parser.add_argument("runs", nargs="+", help="tpsrl-eval run directories (pooled)")
    parser.add_argument(
        "--bins",
        default=",".join(f"{b:g}" for b in DEFAULT_BINS),
        help="bin edges in metres, comma-separated (the last bin is open above)",
    )
    parser.add_argument(
        "--detour",
        type=float,
        default=None,
        metavar="R",
        help="also split the episodes by their way's shortest path over the straight line: below R "
        "(straight) and at least R (detoured)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object on the last line")
    args = parser.parse_args(argv)
    if args.detour is not None and not args.detour > 0:
        parser.error(f"--detour: {args.detour} must be > 0 (e.g. 1.15)")
    try:
        edges = tuple(float(x) for x in args.bins.split(","))
    except ValueError:
        parser.error(f"--bins: {args.bins!r} is not a comma-separated list of numbers")
    try:
        found = first_stage_specs([Path(r) for r in args.runs])
        groups = {"all": [(d, ok) for d, ok, _ in found]}
        if args.detour is not None:
            ratios = [detour(spec) for _, _, spec in found]
            straight = [r is not None and r < args.detour for r in ratios]
            groups["straight"] = [(d, ok) for (d, ok, _), s in zip(found, straight, strict=True) if s]
            groups["detoured"] = [(d, ok) for (d, ok, _), s in zip(found, straight, strict=True) if not s]
        tables = {name: by_distance(pairs, edges) for name, pairs in groups.items()}
    except StartDistanceError as e:
        parser.error(str(e))
    labels = {}
    if args.detour is not None:
        labels["straight"] = f"straight (the way under {args.detour:g} x the line)"
        labels["detoured"] = f"detoured (the way {args.detour:g} x the line or more, or none)"
    for name, pairs in groups.items():
        reached = sum(ok for _, ok in pairs)
        if name == "all":
            print(
                f"first stage from the robot's start, {len(pairs)} episodes of {len(args.runs)} run(s): "
                f"{reached} reached ({reached / len(pairs):.1%})"
            )
        else:
            print(f"{labels[name]}: {reached} of {len(pairs)}")
        print(f"{'start distance (m)':>20}  {'episodes':>8}  {'success (95% CI)':>22}")
        for r in tables[name]:
            span = f"{r['from_m']:g}+" if math.isinf(r["to_m"]) else f"{r['from_m']:g}-{r['to_m']:g}"
            rate = "-" if r["success"] is None else f"{r['success']:.0%} [{r['ci'][0]:.0%}, {r['ci'][1]:.0%}]"
            print(f"{span:>20}  {r['episodes']:>8}  {rate:>22}")
    if args.json:
        out: dict[str, Any] = {
            "episodes": len(groups["all"]),
            "reached": sum(ok for _, ok in groups["all"]),
            "bins": _json_bins(tables["all"]),
        }
        if args.detour is not None:
            out |= {"detour": args.detour, "straight": _json_bins(tables["straight"])}
            out["detoured"] = _json_bins(tables["detoured"])
        print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
