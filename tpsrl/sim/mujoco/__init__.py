"""The embedded MuJoCo home-rearrangement simulator (default backend)."""
