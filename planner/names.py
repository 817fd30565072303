"""Safe PDDL names for arbitrary object handles, and the way back.

pddlpy's grammar rejects object names that are PDDL keywords (``start``, ``end``, ``all``, ``either``,
``number``, ``and`` ...), names that start with a digit, and names with characters outside
``[A-Za-z0-9_-]``; other planners also treat names case-insensitively. A :class:`NameMap` gives every
handle a lower-case PDDL name that parses, keeps handles that are already safe unchanged (so written
problem files stay readable), and maps names back when a problem file is read.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from pddlpy.pddlLexer import pddlLexer

__all__ = ["RESERVED_NAMES", "NameMap", "is_safe_name"]

_SAFE = re.compile(r"[a-z][a-z0-9_-]*")

# Every bare keyword of pddlpy's grammar (read from its lexer, so a future grammar cannot drift from
# this list), plus PDDL's root type; `at` and `over` happen to parse as names but are keywords elsewhere.
RESERVED_NAMES: frozenset[str] = frozenset(
    lit.strip("'") for lit in pddlLexer.literalNames if re.fullmatch(r"'[a-z][a-z0-9-]*'", lit)
) | {"object"}


def is_safe_name(name: str) -> bool:
    """True if ``name`` can be written into a PDDL file as it is."""
    return bool(_SAFE.fullmatch(name)) and name not in RESERVED_NAMES


def _sanitize(handle: str) -> str:
    body = re.sub(r"[^a-z0-9_-]+", "_", handle.lower()).strip("_-") or "x"
    # A prefix makes names that start with a digit or clash with a keyword parse.
    return body if is_safe_name(body) else f"o_{body}"


@dataclass(frozen=True)
class NameMap:
    """A bijection between object handles and safe PDDL names.

    Build it with :meth:`for_handles`; the mapping depends only on the set of handles, so a reader that
    knows the handles can rebuild the same map.
    """

    to_pddl: Mapping[str, str] = field(default_factory=dict)
    to_handle: Mapping[str, str] = field(default_factory=dict)

    @classmethod
    def for_handles(cls, handles: Iterable[str]) -> NameMap:
        unique = sorted(set(handles))
        to_pddl: dict[str, str] = {}
        taken: set[str] = set()
        # Safe handles first, so that they keep their own names and only the odd ones get renamed.
        for handle in sorted(unique, key=lambda h: (not is_safe_name(h), h)):
            name = handle if is_safe_name(handle) else _sanitize(handle)
            candidate, n = name, 1
            while candidate in taken:
                n += 1
                candidate = f"{name}_{n}"
            to_pddl[handle] = candidate
            taken.add(candidate)
        return cls(to_pddl, {v: k for k, v in to_pddl.items()})

    def pddl(self, handle: str) -> str:
        """The PDDL name of ``handle``."""
        try:
            return self.to_pddl[handle]
        except KeyError:
            raise KeyError(
                f"object {handle!r} has no PDDL name; known objects: {sorted(self.to_pddl)}"
            ) from None

    def handle(self, name: str) -> str:
        """The handle behind PDDL ``name``; names the map does not know are returned unchanged."""
        return self.to_handle.get(name, name)

    @property
    def renamed(self) -> dict[str, str]:
        """The handles whose PDDL name differs from the handle itself."""
        return {h: n for h, n in self.to_pddl.items() if h != n}
