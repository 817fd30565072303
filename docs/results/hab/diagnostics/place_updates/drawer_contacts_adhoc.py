"""What touches the drawer while the shipped place comes in (an ad-hoc check, kept as run).

    python docs/results/hab/diagnostics/place_updates/drawer_contacts_adhoc.py

Episodes 7, 9, 30 and 43 of `receptacle_timeouts.py`'s drawer goals (the four `drawer_trace.py` shows
shut): over their first 40 steps, every contact between a geom of the top drawer and one outside it,
counted by the other geom's name and body and whether the drawer closed by more than 5 mm that step.
Printed: `obj:obj0` (the held object) alone, mostly on steps the drawer closed.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "timeouts"))
import place_timeouts  # noqa: E402
from pick_timeouts import episodes  # noqa: E402

FIELDS = dict(place_timeouts.FIELDS, goal_receptacles=("drawer_0",))


def in_body(m, geom: int, root: int) -> bool:
    """Whether `geom` belongs to body `root` or one below it."""
    body = m.geom_bodyid[geom]
    while body != 0:
        if body == root:
            return True
        body = m.body_parentid[body]
    return False


for k, env, pol, obs in episodes("skills/checkpoints/place.pt", 44, FIELDS):
    if k not in {7, 9, 30, 43}:
        continue
    b = env.backend
    m, d = b.model, b.data
    drawer = m.body("drawer_0_body").id

    seen: Counter = Counter()
    step, done, before = 0, False, b.articulation("drawer_0")
    while not done and step < 40:
        obs, _, terminated, truncated, _ = env.step(pol.act(obs, env))
        step, done = step + 1, terminated or truncated
        now = b.articulation("drawer_0")
        for i in range(d.ncon):
            g1, g2 = d.contact[i].geom1, d.contact[i].geom2
            for a, o in ((g1, g2), (g2, g1)):
                if in_body(m, a, drawer) and not in_body(m, o, drawer):
                    name = m.geom(o).name or f"geom{o}"
                    seen[(name, m.body(m.geom_bodyid[o]).name, before - now > 0.005)] += 1
        before = now
    print(k, seen.most_common(8))
