"""Comments point into the repository's design document, never at one a fresh clone does not have."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
POINTER = re.compile(r"architecture\.md((?:,? ?§\d+)+)")


def _sources() -> list[Path]:
    files = [*(ROOT / "desktop").rglob("*.py"), *(ROOT / "tests").rglob("*.py"),
             *(ROOT / "benchmarks").rglob("*.py"), *(ROOT / "scripts").rglob("*.py")]
    return sorted(f for f in files if f.resolve() != Path(__file__).resolve())  # this file's examples


def sections(markdown: str) -> set[int]:
    return {int(m) for m in re.findall(r"^## (\d+)\.", markdown, flags=re.MULTILINE)}


def dangling(text: str, known: set[int]) -> list[str]:
    """The pointers in ``text`` that name no section of the document, and any to the old outside design."""
    bad = [m.group(0) for m in re.finditer(r"DESIGN(?:\.md)? ?§\s*\d+", text)]
    for m in POINTER.finditer(text):
        bad += [m.group(0) for n in re.findall(r"§(\d+)", m.group(1)) if int(n) not in known]
    return bad


def test_every_pointer_names_a_section_of_the_design_document() -> None:
    known = sections(DOC.read_text(encoding="utf-8"))
    assert known, "docs/architecture.md has no numbered sections"
    found = {str(p.relative_to(ROOT)): dangling(p.read_text(encoding="utf-8"), known) for p in _sources()}
    assert {f: b for f, b in found.items() if b} == {}


def test_the_check_catches_an_outside_design_and_a_missing_section() -> None:
    assert dangling('"""Phase 2 (DESIGN §5)."""', {1, 2}) == ["DESIGN §5"]
    assert dangling("see docs/architecture.md §9", {1, 2}) == ["architecture.md §9"]
    assert dangling("see docs/architecture.md §2, §7", {2, 7}) == []
