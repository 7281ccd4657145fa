"""export_all: every format written atomically, report.json round-trips, audit.jsonl one object a
line, and one failing format costs only itself."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path

import pytest

import desktop.report.export as export
from desktop.report.export import ExportError, export_all
from desktop.report.model import Report

ALL = {"md": "report.md", "html": "report.html", "pdf": "report.pdf", "docx": "report.docx", "json": "report.json"}


def _leftovers(folder: Path) -> list[str]:
    return [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_writes_every_format(report_de: Report, tmp_path: Path) -> None:
    out = tmp_path / "runs" / "r1"  # created when missing
    events = [{"type": "run_started", "at": datetime(2025, 3, 1, tzinfo=UTC)}, {"type": "note", "text": "Prüfung § 80"}]
    paths = export_all(report_de, out, audit_events=iter(events))
    assert paths == {fmt: out / name for fmt, name in (ALL | {"audit": "audit.jsonl"}).items()}
    assert all(p.is_file() and p.stat().st_size > 0 for p in paths.values())
    assert _leftovers(out) == []
    assert paths["md"].read_text(encoding="utf-8").startswith("# Dosisgrenzwerte")
    assert paths["pdf"].read_bytes().startswith(b"%PDF") and paths["docx"].read_bytes().startswith(b"PK")
    lines = paths["audit"].read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in lines] == [
        {"type": "run_started", "at": "2025-03-01 00:00:00+00:00"}, {"type": "note", "text": "Prüfung § 80"}]
    assert "Prüfung § 80" in lines[1]  # UTF-8 as written, no \\u escapes


def test_no_audit_file_without_events(report_en: Report, tmp_path: Path) -> None:
    assert set(export_all(report_en, tmp_path)) == set(ALL)
    assert not (tmp_path / "audit.jsonl").exists()


def test_report_json_round_trips(report_de: Report, tmp_path: Path) -> None:
    path = export_all(report_de, tmp_path)["json"]
    raw = path.read_text(encoding="utf-8")
    assert "Bevölkerung" in raw and "„im Einzelfall“" in raw and "\\u00" not in raw  # not ASCII-escaped
    data = json.loads(raw)
    assert {"question", "language", "answer", "citations", "findings", "quality", "run"} <= data.keys()
    assert {"n", "doc", "page", "quote", "quote_verified", "rects"} <= data["citations"][0].keys()
    assert {"primary", "secondary", "tertiary"} <= data["findings"].keys()
    assert Report.model_validate_json(raw) == report_de


def test_one_failing_format_keeps_the_others_and_the_old_file(
    report_de: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "report.pdf").write_bytes(b"old complete pdf")
    seen: list[Path] = []

    def broken_pdf(report: Report, path: Path) -> None:
        seen.append(path)
        path.write_bytes(b"%PDF-1.7 half a fi")  # a crash halfway through writing
        raise RuntimeError("layout failed")

    monkeypatch.setattr(export, "to_pdf", broken_pdf)
    with pytest.raises(ExportError) as failure:
        export_all(report_de, tmp_path, audit_events=[{"type": "x"}])
    err = failure.value
    assert set(err.errors) == {"pdf"} and "pdf" in str(err) and "layout failed" in str(err)
    assert set(err.written) == {"md", "html", "docx", "json", "audit"}
    assert all(p.is_file() and p.stat().st_size > 0 for p in err.written.values())
    # the writer never touched the target; the half file went away with its temporary name
    assert seen and seen[0].parent == tmp_path and seen[0].name != "report.pdf"
    assert (tmp_path / "report.pdf").read_bytes() == b"old complete pdf"
    assert _leftovers(tmp_path) == []


def test_several_failures_are_named_together(report_en: Report, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: object) -> str:
        raise OSError("disk full")

    monkeypatch.setattr(export, "to_html", fail)
    monkeypatch.setattr(export, "to_docx", fail)
    with pytest.raises(ExportError, match=r"failed for html, docx") as failure:
        export_all(report_en, tmp_path)
    assert set(failure.value.written) == {"md", "pdf", "json"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["report.json", "report.md", "report.pdf"]


def test_report_package_stays_out_of_other_layers() -> None:
    """The exports are used by engine, UI and CLI; they import none of them, and no Qt."""
    import ast

    package = Path(export.__file__).parent
    forbidden = ("desktop.engine", "desktop.ui", "desktop.bridge", "desktop.cli", "PySide6", "qasync")
    for file in package.glob("*.py"):
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            assert not [n for n in names if n.startswith(forbidden)], file.name


def test_a_bare_report_exports(report_en: Report, tmp_path: Path) -> None:
    """No sources, findings, plan or timings, control characters from a PDF: every format still works."""
    bare = report_en.model_copy(update={
        "answer": "Nothing found.\x00\x0b", "citations": [], "findings": type(report_en.findings)(), "filtered": [],
        "drift_warning": None, "tasks": [], "scope": "", "language": "en-GB",
        "run": report_en.run.model_copy(update={"timings": []})})
    paths = export_all(bare, tmp_path)
    md = paths["md"].read_text(encoding="utf-8")
    assert "## Sources\n\nNo sources." in md and "## Plan" not in md and "Filtered out" not in md
    assert Report.model_validate_json(paths["json"].read_text(encoding="utf-8")) == bare


def test_a_question_longer_than_a_docx_property_exports(report_en: Report, tmp_path: Path) -> None:
    """Seen: a FinanceBench question of 350 characters made the DOCX export fail (255 at most a property)."""
    import docx

    question = "What is Amazon's FY2017 days payable outstanding (DPO)? " + "DPO is defined as 365 * (…). " * 12
    long = report_en.model_copy(update={"question": question, "title": question})
    paths = export_all(long, tmp_path)
    props = docx.Document(str(paths["docx"])).core_properties
    assert len(props.title) == len(props.subject) == 255 and props.subject.endswith("…")
