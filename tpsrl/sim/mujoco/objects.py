"""Catalogue of movable object types, sized and weighted like their YCB counterparts.

Each type is one MuJoCo primitive (box, cylinder, sphere or capsule). Sizes are MuJoCo half-sizes in
metres; masses in kg follow the YCB object set (Calli et al., 2015) to within a few grams.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ObjectType:
    """A movable object type: one primitive geom."""

    name: str
    shape: str  # "box" | "cylinder" | "sphere" | "capsule"
    size: tuple[float, ...]  # MuJoCo half-sizes: box (x, y, z); cylinder/capsule (r, half-h); sphere (r,)
    mass: float
    rgba: tuple[float, float, float, float]

    @property
    def half_height(self) -> float:
        """Half of the object's vertical extent when standing upright."""
        if self.shape == "box":
            return self.size[2]
        if self.shape == "sphere":
            return self.size[0]
        if self.shape == "capsule":  # capsules lie on their side (see scene builder)
            return self.size[0]
        return self.size[1]

    @property
    def radius_xy(self) -> float:
        """Radius of the object's footprint, for spacing objects on a surface."""
        if self.shape == "box":
            return float((self.size[0] ** 2 + self.size[1] ** 2) ** 0.5)
        if self.shape == "capsule":
            return self.size[1] + self.size[0]
        return self.size[0]


OBJECT_TYPES: dict[str, ObjectType] = {
    t.name: t
    for t in [
        ObjectType("cracker_box", "box", (0.030, 0.080, 0.105), 0.411, (0.85, 0.20, 0.15, 1)),
        ObjectType("sugar_box", "box", (0.019, 0.045, 0.088), 0.514, (0.95, 0.90, 0.60, 1)),
        ObjectType("tomato_soup_can", "cylinder", (0.033, 0.051), 0.349, (0.80, 0.10, 0.10, 1)),
        ObjectType("mustard_bottle", "box", (0.029, 0.048, 0.095), 0.603, (0.95, 0.85, 0.10, 1)),
        ObjectType("master_chef_can", "cylinder", (0.051, 0.070), 0.414, (0.20, 0.35, 0.75, 1)),
        ObjectType("potted_meat_can", "box", (0.025, 0.050, 0.042), 0.370, (0.30, 0.45, 0.80, 1)),
        ObjectType("gelatin_box", "box", (0.014, 0.043, 0.037), 0.097, (0.90, 0.30, 0.50, 1)),
        ObjectType("bowl", "cylinder", (0.080, 0.027), 0.147, (0.75, 0.10, 0.10, 1)),
        ObjectType("mug", "cylinder", (0.040, 0.040), 0.118, (0.80, 0.25, 0.20, 1)),
        ObjectType("apple", "sphere", (0.037,), 0.068, (0.75, 0.05, 0.05, 1)),
        ObjectType("orange", "sphere", (0.036,), 0.047, (1.00, 0.55, 0.05, 1)),
        ObjectType("lemon", "sphere", (0.027,), 0.029, (1.00, 0.95, 0.20, 1)),
        ObjectType("banana", "capsule", (0.018, 0.070), 0.066, (1.00, 0.90, 0.30, 1)),
        ObjectType("plate", "cylinder", (0.130, 0.010), 0.279, (0.95, 0.95, 0.95, 1)),
    ]
}


def object_type(name: str) -> ObjectType:
    """Look up an object type by name; the error lists the known types."""
    try:
        return OBJECT_TYPES[name]
    except KeyError:
        raise ValueError(f"unknown object type {name!r}; known types: {sorted(OBJECT_TYPES)}") from None
