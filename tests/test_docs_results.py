"""The documentation's kept results exist: every `docs/results/runs/...` path the docs name (checkpoints,
metrics, policies a reader is told to resume from or evaluate) is in the repository.

`.gitignore`'s `runs/` also matches `docs/results/runs/`, so a plain `git add` leaves a new run folder
out while the docs that name it land; twice a run was documented as kept and never was.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "docs" / "results"
PATH = re.compile(r"docs/results/(runs/[A-Za-z0-9_./{},*<>-]+)")
BRACES = re.compile(r"\{([^{}]*)\}")


def doc_files() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md")), ROOT / "Makefile"]


def expand(pattern: str) -> list[str]:
    """`a_s{0,1}/` -> [`a_s0/`, `a_s1/`] (shell brace expansion, one level)."""
    parts = BRACES.split(pattern)
    options = [[p] if i % 2 == 0 else p.split(",") for i, p in enumerate(parts)]
    return ["".join(choice) for choice in itertools.product(*options)]


def named_paths(text: str) -> set[str]:
    """The `docs/results/runs/...` paths `text` names, placeholders (`<k>`) left out, braces expanded."""
    out = set()
    for m in PATH.finditer(text):
        path = m.group(1).rstrip(".,;:)")
        if "<" not in path and not path.endswith("runs/"):
            out.update(expand(path))
    return out


def missing(paths: set[str], base: Path) -> list[str]:
    return sorted(p for p in paths if not any(base.glob(p.rstrip("/"))))


def test_named_paths_reads_braces_wildcards_and_placeholders():
    text = (
        "see `docs/results/runs/pick_s{0,1}/pick.pt`, docs/results/runs/x_*/ and docs/results/runs/y_s<k>/."
    )
    assert named_paths(text) == {"runs/pick_s0/pick.pt", "runs/pick_s1/pick.pt", "runs/x_*/"}


def test_missing_finds_an_absent_run(tmp_path):
    (tmp_path / "runs" / "kept").mkdir(parents=True)
    assert missing({"runs/kept/", "runs/lost/", "runs/ke*/"}, tmp_path) == ["runs/lost/"]


def test_every_kept_run_the_docs_name_exists():
    absent = {}
    for f in doc_files():
        for p in missing(named_paths(f.read_text()), RESULTS):
            absent.setdefault(p, []).append(str(f.relative_to(ROOT)))
    assert not absent, f"docs name kept results that are not in docs/results/ (git add -f?): {absent}"


def test_the_results_index_rows_exist():
    """`docs/results/README.md`'s rows name their folders relative to docs/results/."""
    lines = (RESULTS / "README.md").read_text().splitlines()
    cells = [line.split("|")[1] for line in lines if line.startswith("| `runs/")]
    names = {m.group(1) for cell in cells for m in re.finditer(r"`(runs/[^`]+)`", cell)}
    assert names, "no runs/ rows found in docs/results/README.md"
    assert not missing(names, RESULTS), missing(names, RESULTS)
