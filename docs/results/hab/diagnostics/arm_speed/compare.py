"""Side by side: each shipped skill with today's arm and with the fast one (`arm_speed=fast`; evaluate.sh's
JSONs), the same 200 held-out episodes, with the episodes each alone succeeded in and the exact McNemar
p-value; a fine-tuned run's JSON (finetuned_SKILL.json) beside its skill."""

import json
import math
from pathlib import Path

HERE = Path(__file__).parent


def mcnemar(gained: int, lost: int) -> float:
    n = gained + lost
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(gained, lost) + 1)) / 2**n
    return min(1.0, 2 * tail)


def pct(r: dict) -> str:
    return f"{100 * r['success']:.1f}% [{100 * r['ci_low']:.1f}, {100 * r['ci_high']:.1f}]"


print(
    "| skill | today's arm (capped) | fast arm (0.80-0.98 of HAB's rate) | gained / lost | p "
    "| failures (fast arm) |"
)
print("|---|---|---|---|---|---|")
for today in sorted(HERE.glob("today_*.json")):
    k = today.stem.removeprefix("today_")
    a = json.loads(today.read_text())
    b = json.loads((HERE / f"fast_{k}.json").read_text())
    g = sum(1 for u, v in zip(a["outcomes"], b["outcomes"], strict=True) if v and not u)
    lost = sum(1 for u, v in zip(a["outcomes"], b["outcomes"], strict=True) if u and not v)
    print(f"| {k} | {pct(a)} | {pct(b)} | {g} / {lost} | {mcnemar(g, lost):.2g} | {b['failures']} |")
    ft = HERE / f"finetuned_{k}.json"
    if ft.exists():
        c = json.loads(ft.read_text())
        g = sum(1 for u, v in zip(b["outcomes"], c["outcomes"], strict=True) if v and not u)
        lost = sum(1 for u, v in zip(b["outcomes"], c["outcomes"], strict=True) if u and not v)
        trained = c["env_steps_trained"] - a["env_steps_trained"]
        print(
            f"| {k}, fine-tuned {trained:,} steps under the fast arm | | {pct(c)} | {g} / {lost} "
            f"(against the shipped, fast arm) | {mcnemar(g, lost):.2g} | {c['failures']} |"
        )
