"""The fixed layout split: held-out layouts are never sampled for training; evaluation uses them."""

from __future__ import annotations

from tpsrl.sim.mujoco.layout import NUM_LAYOUTS

HELDOUT_LAYOUTS: tuple[int, ...] = (3, 7, 11, 15, 19, 23, 27, 31)
"""8 of the 32 layouts (a quarter), spread over the index range; fixed forever."""
TRAIN_LAYOUTS: tuple[int, ...] = tuple(i for i in range(NUM_LAYOUTS) if i not in HELDOUT_LAYOUTS)
SPLITS: dict[str, tuple[int, ...]] = {"train": TRAIN_LAYOUTS, "heldout": HELDOUT_LAYOUTS}


def split_layouts(split: str) -> tuple[int, ...]:
    """Layouts of `split` ("train" or "heldout")."""
    if split not in SPLITS:
        raise ValueError(f"skill.split: unknown split {split!r}; accepted: {sorted(SPLITS)}")
    return SPLITS[split]
