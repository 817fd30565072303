"""Shared fixtures: the two built-in domains (parsed once per session; parsing takes ~0.1 s)."""

from __future__ import annotations

import pytest

from planner.domain import Domain, builtin_domain


@pytest.fixture(scope="session")
def nav_domain() -> Domain:
    return builtin_domain("rearrange")


@pytest.fixture(scope="session")
def nonav_domain() -> Domain:
    return builtin_domain("rearrange_nonav")
