"""PDDL domains: parse with pddlpy, refuse what it would silently get wrong, expose plain schemas.

pddlpy 1.2.2 only prints syntax errors on stderr and hands back an empty model, and it reads negated goal
literals as positive ones. This module runs pddlpy's own lexer and parser with an error listener that
collects every diagnostic, and raises :class:`PddlError` naming the file and line instead. The parsed
domain is returned as frozen dataclasses (:class:`Domain`, :class:`ActionSchema`) that the grounder and
the search use; nothing downstream touches pddlpy objects.

Supported fragment: typed STRIPS with positive, conjunctive preconditions (what our search handles), plus
universal deletes ``(forall (?v - type) (not (p ... ?v ...)))``, which the grounder expands over the
problem's objects (nav uses one: the robot leaves every place it was near).
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from antlr4 import CommonTokenStream, InputStream, ParseTreeWalker
from antlr4.error.ErrorListener import ErrorListener
from pddlpy.pddl import And, DomainListener, Lit
from pddlpy.pddlLexer import pddlLexer
from pddlpy.pddlParser import pddlParser

__all__ = [
    "BUILTIN_DOMAINS",
    "ActionSchema",
    "Atom",
    "Domain",
    "PddlError",
    "builtin_domain",
    "load_domain",
    "parse_pddl",
]

#: Built-in domain name -> file under ``planner/domains``.
BUILTIN_DOMAINS: dict[str, str] = {
    "rearrange": "rearrange.pddl",
    "rearrange_nonav": "rearrange_nonav.pddl",
}

#: A lifted atom: ``(predicate, term, ...)`` where terms starting with ``?`` are parameters.
Atom = tuple[str, ...]

#: Typed variables of a ``forall``: ``(("?e", "entity"), ...)``.
TypedVars = tuple[tuple[str, str], ...]


class PddlError(ValueError):
    """A PDDL file that cannot be used, with the file and line at fault.

    Attributes:
        path: the file.
        line: 1-based line, or None when the problem is not tied to one line.
        detail: what was wrong and what is accepted.
    """

    def __init__(self, path: str | Path, line: int | None, detail: str) -> None:
        self.path = str(path)
        self.line = line
        self.detail = detail
        where = f"{self.path}:{line}" if line is not None else self.path
        super().__init__(f"{where}: {detail}")


class _Collect(ErrorListener):
    """Collects ANTLR syntax errors (pddlpy would only print them)."""

    def __init__(self) -> None:
        self.errors: list[tuple[int, int, str]] = []

    def syntaxError(self, recognizer: Any, offendingSymbol: Any, line: int, column: int, msg: str, e: Any):  # noqa: N802
        self.errors.append((line, column, msg))


def parse_pddl(text: str, path: str | Path, rule: str, listener: Any) -> Any:
    """Parse ``text`` with pddlpy's grammar ``rule`` ("domain"/"problem") and walk ``listener`` over it.

    Raises:
        PddlError: at the first syntax error, with its line and column.
    """
    collect = _Collect()
    lexer = pddlLexer(InputStream(text))
    lexer.removeErrorListeners()
    lexer.addErrorListener(collect)
    parser = pddlParser(CommonTokenStream(lexer))
    parser.removeErrorListeners()
    parser.addErrorListener(collect)
    tree = getattr(parser, rule)()
    if collect.errors:
        line, column, msg = collect.errors[0]
        more = f" (and {len(collect.errors) - 1} more)" if len(collect.errors) > 1 else ""
        raise PddlError(
            path, line, f"syntax error at column {column}: {msg}{more}; names must match [a-z][a-z0-9_-]*"
        )
    ParseTreeWalker().walk(listener, tree)
    return listener


def line_of(text: str, pattern: str) -> int | None:
    """1-based line of the first regex match of ``pattern`` in ``text`` (for error messages)."""
    m = re.search(pattern, text, flags=re.IGNORECASE)
    return text.count("\n", 0, m.start()) + 1 if m else None


@dataclass(frozen=True)
class ActionSchema:
    """A lifted action: typed parameters, positive preconditions, add and delete lists.

    ``delete_all`` holds universal deletes: ``(variables, atom)`` deletes ``atom`` for every binding of
    ``variables`` to objects of their types (``(forall (?e - entity) (not (robot_at ?e)))``). Deletes
    apply before adds, so an action may delete every ``robot_at`` and add the one it reaches.
    """

    name: str
    params: tuple[tuple[str, str], ...]
    pre: tuple[Atom, ...]
    add: tuple[Atom, ...]
    delete: tuple[Atom, ...]
    delete_all: tuple[tuple[TypedVars, Atom], ...] = ()


@dataclass(frozen=True)
class Domain:
    """A parsed, checked PDDL domain.

    Attributes:
        name: the ``(domain NAME)``.
        path: the file it came from (used by error messages and by pddlpy when reading problems).
        parents: type -> supertype (``object`` at the root).
        predicates: predicate name -> argument types.
        actions: the action schemas, in file order.
    """

    name: str
    path: Path
    parents: dict[str, str]
    predicates: dict[str, tuple[str, ...]]
    actions: tuple[ActionSchema, ...]

    @functools.cached_property
    def types(self) -> frozenset[str]:
        return frozenset(self.parents) | frozenset(self.parents.values())

    def is_subtype(self, child: str, parent: str) -> bool:
        """True if ``child`` is ``parent`` or (transitively) below it."""
        while True:
            if child == parent:
                return True
            if child not in self.parents:
                return False
            child = self.parents[child]

    @functools.cached_property
    def static_predicates(self) -> frozenset[str]:
        """Predicates no action adds or deletes: they keep their initial truth value forever."""
        changed = {a[0] for s in self.actions for a in s.add + s.delete}
        changed |= {a[0] for s in self.actions for _, a in s.delete_all}
        return frozenset(self.predicates) - changed

    @functools.cached_property
    def has_navigation(self) -> bool:
        """True if some action makes ``robot_at`` true (the NoNav domain has none)."""
        return any(a[0] == "robot_at" for s in self.actions for a in s.add)

    def action(self, name: str) -> ActionSchema:
        for schema in self.actions:
            if schema.name == name:
                return schema
        raise KeyError(
            f"domain {self.name!r} has no action {name!r}; known: {[s.name for s in self.actions]}"
        )


def _flat_atoms(tree: Any, path: Path, text: str, action: str) -> tuple[Atom, ...]:
    """The literals of a conjunctive precondition tree; anything else is refused with its line."""
    children = tree.children if isinstance(tree, And) else [tree]
    atoms: list[Atom] = []
    for child in children:
        if not isinstance(child, Lit):
            raise PddlError(
                path,
                line_of(text, rf"\(:action\s+{re.escape(action)}\b"),
                f"action {action!r}: unsupported precondition {child!r}; accepted: a conjunction of "
                "positive atoms (write `closed ?r` rather than `not (opened ?r)`)",
            )
        atoms.append(tuple(child.atom.predicate))
    return tuple(atoms)


def _check_atom(
    atom: Atom, params: dict[str, str], preds: dict[str, tuple[str, ...]], where: str
) -> str | None:
    """An error message if ``atom`` uses an undeclared predicate, wrong arity, or an unknown parameter."""
    if atom[0] not in preds:
        return f"{where}: predicate {atom[0]!r} is not declared; declared: {sorted(preds)}"
    if len(atom) - 1 != len(preds[atom[0]]):
        return f"{where}: ({' '.join(atom)}) has {len(atom) - 1} arguments, {atom[0]} takes {len(preds[atom[0]])}"
    for term in atom[1:]:
        if term.startswith("?") and term not in params:
            return f"{where}: ({' '.join(atom)}) uses {term}, which is not a parameter; parameters: {list(params)}"
    return None


def _block(text: str, keyword: str) -> str | None:
    """The body of the ``(:keyword ...)`` section, comments removed, or None if the file has none."""
    start = re.search(rf"\(:{keyword}\b", text, flags=re.IGNORECASE)
    if start is None:
        return None
    depth, i = 0, start.start()
    while i < len(text):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            break
        i += 1
    return re.sub(r";[^\n]*", "", text[start.end() : i])


def _check_portable(text: str, path: Path, requirements: set[str]) -> None:
    """Refuse what pddlpy tolerates but stricter planners reject (Fast Downward, the ``pddl`` package).

    Every parent type must be declared itself (pddlpy silently adds it below ``object``), and a universal
    effect needs ``:conditional-effects`` (or ``:adl``) among the requirements.
    """
    tokens = (_block(text, "types") or "").split()
    parents = {tokens[i + 1] for i, tok in enumerate(tokens[:-1]) if tok == "-"}
    declared = {tok for i, tok in enumerate(tokens) if tok != "-" and (i == 0 or tokens[i - 1] != "-")}
    for parent in sorted(parents - declared - {"object"}):
        raise PddlError(
            path,
            line_of(text, r"\(:types"),
            f"type {parent!r} is used as a parent type but never declared; declare it, e.g. "
            f"`{parent} - object`, so that other PDDL parsers accept the file",
        )
    effects = " ".join(re.findall(r":effect(.*?)(?=\(:action|\Z)", text, flags=re.IGNORECASE | re.DOTALL))
    if re.search(r"\(\s*forall\b", effects, flags=re.IGNORECASE) and not requirements & {
        ":conditional-effects",
        ":adl",
    }:
        raise PddlError(
            path,
            line_of(text, r"\(:requirements"),
            "a forall effect needs :conditional-effects (or :adl) in :requirements; "
            f"declared: {sorted(requirements)}",
        )


def _predicate_types(text: str, path: Path) -> dict[str, tuple[str, ...]]:
    """Predicate signatures, read from the ``:predicates`` block (pddlpy keeps only the names)."""
    block = _block(text, "predicates")
    if block is None:
        return {}
    preds: dict[str, tuple[str, ...]] = {}
    for name, body in re.findall(r"\(\s*([^\s()]+)([^()]*)\)", block):
        tokens, types, pending = body.split(), [], 0
        j = 0
        while j < len(tokens):
            if tokens[j] == "-":
                types += [tokens[j + 1]] * pending
                pending, j = 0, j + 2
                continue
            pending, j = pending + 1, j + 1
        preds[name] = tuple(types + ["object"] * pending)
    return preds


def _domain_from_text(text: str, path: Path) -> Domain:
    listener = parse_pddl(text, path, "domain", DomainListener())
    name_match = re.search(r"\(\s*domain\s+([^\s()]+)", text, flags=re.IGNORECASE)
    name = name_match.group(1) if name_match else path.stem
    if listener.durative_operators or listener.functions:
        raise PddlError(
            path, None, "durative actions and numeric functions are not supported; accepted: STRIPS"
        )
    _check_portable(text, path, {r.lower() for r in listener.requirements})
    parents = {t: (p or "object") for t, p in listener.types.items()}
    for t in parents:
        seen = {t}
        while t in parents and parents[t] != "object":
            t = parents[t]
            if t in seen:
                raise PddlError(path, line_of(text, r"\(:types"), f"type {t!r} is its own supertype")
            seen.add(t)
    known_types = set(parents) | set(parents.values()) | {"object"}
    preds = _predicate_types(text, path)
    for pred, types in preds.items():
        for t in types:
            if t not in known_types:
                raise PddlError(
                    path,
                    line_of(text, rf"\(\s*{re.escape(pred)}\b"),
                    f"predicate {pred!r}: unknown type {t!r}; declared types: {sorted(known_types)}",
                )
    actions = []
    for op_name, op in listener.operators.items():
        where = f"action {op_name!r}"
        line = line_of(text, rf"\(:action\s+{re.escape(op_name)}\b")
        params = dict(op.variable_list)
        for var, t in params.items():
            if t is None or t not in known_types:
                raise PddlError(
                    path, line, f"{where}: parameter {var} has type {t!r}; accepted: {sorted(known_types)}"
                )
        pre = _flat_atoms(op.precondition_tree, path, text, op_name) if op.precondition_tree else ()
        delete_all = _universal_deletes(op.effect_tree, path, line, where, known_types)
        if op.conditional_effects:
            raise PddlError(path, line, f"{where}: conditional effects (when) are not supported")
        add = tuple(sorted(tuple(a.predicate) for a in op.effect_pos))
        delete = tuple(sorted(tuple(a.predicate) for a in op.effect_neg))
        for atom in pre + add + delete:
            message = _check_atom(atom, params, preds, where)
            if message:
                raise PddlError(path, line, message)
        for variables, atom in delete_all:
            message = _check_atom(atom, dict(variables), preds, where)
            if message:  # also refuses the action's own parameters inside a forall (not supported)
                raise PddlError(path, line, f"{message} (a forall delete may use only its own variables)")
        actions.append(ActionSchema(op_name, tuple(params.items()), pre, add, delete, delete_all))
    if not actions:
        raise PddlError(path, None, "the domain declares no actions")
    return Domain(name, path, parents, preds, tuple(actions))


def _universal_deletes(
    effect: Any, path: Path, line: int | None, where: str, known_types: set[str]
) -> tuple[tuple[TypedVars, Atom], ...]:
    """The ``(forall (vars) (not atom))`` effects of an effect tree; any other forall or when is refused."""
    found: list[tuple[TypedVars, Atom]] = []
    for child in getattr(effect, "children", None) or [effect]:
        kind = type(child).__name__
        if kind == "When":
            raise PddlError(path, line, f"{where}: conditional effects (when) are not supported")
        if kind != "Universal":
            continue
        body = child.effect
        if type(body).__name__ != "AddDel" or body.add:
            raise PddlError(
                path,
                line,
                f"{where}: unsupported universal effect; accepted: (forall (?v - type) (not (pred ... ?v ...)))",
            )
        variables = tuple((v, t or "object") for v, t in child.varlist.items())
        for v, t in variables:
            if t not in known_types:
                raise PddlError(path, line, f"{where}: forall variable {v} has unknown type {t!r}")
        found.append((variables, tuple(body.atom.predicate)))
    return tuple(found)


@functools.lru_cache(maxsize=32)
def _load_cached(path: Path, mtime_ns: int) -> Domain:
    return _domain_from_text(path.read_text(encoding="utf-8"), path)


def load_domain(path: str | Path) -> Domain:
    """Parse and check a PDDL domain file (cached per file and modification time).

    Raises:
        PddlError: with the file and line of the first problem found.
        FileNotFoundError: if the file does not exist.
    """
    p = Path(path).resolve()
    return _load_cached(p, p.stat().st_mtime_ns)


def builtin_domain(name: str = "rearrange") -> Domain:
    """A domain shipped with the package: ``"rearrange"`` or ``"rearrange_nonav"`` (the NoNav ablation)."""
    if name not in BUILTIN_DOMAINS:
        raise KeyError(f"unknown built-in domain {name!r}; known: {sorted(BUILTIN_DOMAINS)}")
    # Next to this module: package data in wheels, the source tree in editable installs.
    return load_domain(Path(__file__).with_name("domains") / BUILTIN_DOMAINS[name])
