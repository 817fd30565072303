"""Tests of the HAB evaluation (grounding between simulator and planner)."""
