"""The shipped domains and written problems are plain PDDL that other parsers read the same way.

The second parser is the ``pddl`` package (AI-Planning, a Lark grammar independent of pddlpy's ANTLR
one; in the ``dev`` extra). It is lenient about undeclared parent types and missing requirements, as is
pddlpy, so our own loader refuses those (Fast Downward does): tested here too.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from planner.domain import BUILTIN_DOMAINS, Domain, PddlError, builtin_domain, load_domain
from planner.problem import problem_from_episode, write_problem
from planner.scenarios import SCENARIOS, get_scenario

pddl = pytest.importorskip("pddl", reason="the second PDDL parser (pip install -e .[dev])")


@pytest.mark.parametrize("name", sorted(BUILTIN_DOMAINS))
def test_builtin_domain_reads_the_same_in_the_pddl_package(name: str) -> None:
    ours = builtin_domain(name)
    theirs = pddl.parse_domain(ours.path)
    assert theirs.name == ours.name
    # Every type is declared with its parent (entity sits below object, not undeclared).
    assert {t: p or "object" for t, p in theirs.types.items()} == ours.parents
    assert {
        p.name: tuple(sorted(t.type_tags)[0] for t in p.terms) for p in theirs.predicates
    } == ours.predicates
    assert {a.name: tuple(sorted(v.type_tags)[0] for v in a.parameters) for a in theirs.actions} == {
        a.name: tuple(t for _, t in a.params) for a in ours.actions
    }


@pytest.mark.parametrize("scenario", sorted(SCENARIOS))
@pytest.mark.parametrize("name", sorted(BUILTIN_DOMAINS))
def test_written_problems_read_the_same_in_the_pddl_package(scenario: str, name: str, tmp_path: Path) -> None:
    domain = builtin_domain(name)
    problem = problem_from_episode(get_scenario(scenario, n_distractors=5))
    path = tmp_path / f"{scenario}.pddl"
    write_problem(problem, domain, path)
    theirs = pddl.parse_problem(path)
    assert {str(o.name): sorted(o.type_tags)[0] for o in theirs.objects} == dict(problem.objects)
    assert {str(a) for a in theirs.init} == {str(f) for f in problem.init}
    goal = theirs.goal.operands if hasattr(theirs.goal, "operands") else (theirs.goal,)
    assert {str(a) for a in goal} == {str(f) for f in problem.goal}
    # The pair (domain, problem) is what an external planner is handed: the pddl package checks it.
    pddl.parse_domain(domain.path)


def _variant(tmp_path: Path, nav: Domain, old: str, new: str) -> Path:
    text = nav.path.read_text()
    assert old in text
    path = tmp_path / "variant.pddl"
    path.write_text(text.replace(old, new))
    return path


def test_undeclared_parent_type_is_refused(tmp_path: Path, nav_domain: Domain) -> None:
    path = _variant(tmp_path, nav_domain, "    entity - object\n", "")
    with pytest.raises(PddlError, match="type 'entity' is used as a parent type but never declared") as info:
        load_domain(path)
    assert info.value.line == 9


def test_forall_effect_needs_its_requirement(tmp_path: Path, nav_domain: Domain) -> None:
    path = _variant(tmp_path, nav_domain, " :conditional-effects)", ")")
    with pytest.raises(PddlError, match="forall effect needs :conditional-effects"):
        load_domain(path)
