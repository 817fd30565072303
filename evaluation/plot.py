"""The Figure-6-style plot: success rate per stage, one line per agent variant, one panel per scenario.

Drawn with matplotlib when it is installed; otherwise with Pillow (always present: videos use it), so
the study always writes its PNG.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

__all__ = ["COLORS", "plot_stages"]

COLORS: dict[str, tuple[int, int, int]] = {
    "tp_spa": (90, 90, 90),
    "tp_srl": (31, 119, 180),
    "tp_srl_nobase": (255, 127, 14),
    "tp_srl_nonav": (44, 160, 44),
    "tp_srl_nonav_nobase": (214, 39, 40),
}
"""Line colour per agent variant (RGB)."""

Records = Mapping[str, Sequence[Mapping[str, Any]]]  # scenario -> the run records of its variants


def plot_stages(records: Records, path: Path) -> Path:
    """Write the plot of `records` (scenario -> list of tpsrl-eval records) to `path` (PNG)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import matplotlib
    except ImportError:
        return _pil_plot(records, path)
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(
        2, len(records), figsize=(5 * len(records), 5.6), squeeze=False, height_ratios=(3.0, 1.0)
    )
    for ax, under, (scenario, runs) in zip(axes[0], axes[1], records.items(), strict=True):
        for r in runs:
            xs = range(len(r["stage_names"]))
            label = f"{r['agent']} (n={r['episodes']})"
            ax.plot(xs, r["stage_success"], marker="o", label=label, color=_hex(r["agent"]))
            ax.set_xticks(list(xs), r["stage_names"], rotation=60, ha="right", fontsize=7)
        ax.set_title(scenario)
        ax.set_ylim(-0.02, 1.02)
        ax.set_ylabel("success rate")
        ax.grid(alpha=0.3)
        under.axis("off")  # the legend's own row below the panel, clear of the lines and the stage names
        if runs:
            under.legend(*ax.get_legend_handles_labels(), fontsize=7, loc="upper center", frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def _hex(agent: str) -> str:
    r, g, b = COLORS.get(agent.split()[0], (0, 0, 0))
    return f"#{r:02x}{g:02x}{b:02x}"


def _pil_plot(records: Records, path: Path, w: int = 420, h: int = 340) -> Path:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (w * max(1, len(records)), h), "white")
    draw = ImageDraw.Draw(img)
    left, top, right, bottom = 40, 24, 15, 90
    for k, (scenario, runs) in enumerate(records.items()):
        x0, x1, y0, y1 = k * w + left, (k + 1) * w - right, top, h - bottom
        draw.text((x0, 4), scenario, fill="black")
        draw.rectangle((x0, y0, x1, y1), outline="black")
        for frac in (0.0, 0.5, 1.0):
            y = y1 - frac * (y1 - y0)
            draw.text((x0 - 30, y - 6), f"{frac:.1f}", fill="black")
        for j, r in enumerate(runs):
            n = max(1, len(r["stage_names"]) - 1)
            pts = [(x0 + i * (x1 - x0) / n, y1 - v * (y1 - y0)) for i, v in enumerate(r["stage_success"])]
            colour = COLORS.get(r["agent"].split()[0], (0, 0, 0))
            draw.line(pts, fill=colour, width=2)
            for x, y in pts:
                draw.ellipse((x - 3, y - 3, x + 3, y + 3), fill=colour)
            draw.text((x0 + 5, y1 + 45 + 12 * j), r["agent"], fill=colour)
        names = runs[0]["stage_names"] if runs else []
        for i, name in enumerate(names):
            x = x0 + i * (x1 - x0) / max(1, len(names) - 1)
            draw.text(
                (x - 10, y1 + 4 + 12 * (i % 3)),
                name.replace("place_", "pl_").replace("pick_", "pk_"),
                fill="black",
            )
    img.save(path)
    return path
