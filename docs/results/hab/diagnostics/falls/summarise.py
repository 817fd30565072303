"""Counts the falls of a falls.py log by kind (released by which skill, how far from the goal; or
disturbed while resting, by what)."""

import ast
import collections
import sys

rows = []
for line in open(sys.argv[1]):
    i, full, fail, rest = line.split(" ", 3)
    falls = ast.literal_eval(rest.strip())
    rows.append((int(i), full == "True", fail, falls))
print(
    "episodes",
    len(rows),
    "full",
    sum(r[1] for r in rows),
    "with a fall",
    sum(bool(r[3]) for r in rows),
    "falls",
    sum(len(r[3]) for r in rows),
)
cat = collections.Counter()
ex = collections.defaultdict(list)
for i, _full, _fail, falls in rows:
    for f in falls:
        if f["goal_dist_onset"] is None:
            k = "clutter"
        elif f["held_at_onset"]:
            gd = f["goal_dist_onset"]
            near = "near_goal" if gd < 0.15 else ("0.15-0.3" if gd < 0.3 else "away")
            c = f["first_contact"]
            how = "no_contact" if c is None else f"contact:{c[0]}:{'+'.join(c[2])}"
            k = f"released[{f['onset_skill']}] {near} {how}"
        else:
            c = f["first_contact"]
            k = f"resting {'placed' if f['goal_dist_onset'] < 0.3 else 'unplaced'} disturbed in {f['onset_skill']} by {'+'.join(c[2]) if c else '?'}"
        cat[k] += 1
        ex[k].append(i)
for k, v in cat.most_common():
    print(f"{v:3d} {k}  {ex[k][:8]}")
# first fall per episode only
first = collections.Counter()
for *_, falls in rows:
    if falls:
        f = falls[0]
        first["held" if f["held_at_onset"] else "resting"] += 1
print("first fall per episode:", first)
