"""Ingestion: incremental updates, user files left alone, every kind of bad input, progress, cancel."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pymupdf
import pytest
from support import pdfs

from desktop.kb.database import KnowledgeBase
from desktop.kb.models import IngestProgress
from desktop.kb.ingestion.pdf import tesseract_available
from desktop.kb.progress import CancelToken
from desktop.settings import Settings


def _by_name(report) -> dict[str, object]:  # noqa: ANN001
    return {Path(f.path).name: f for f in report.files}


def _snapshot(folder: Path) -> dict[str, tuple[bytes, float, int]]:
    return {p.name: (p.read_bytes(), p.stat().st_mtime, p.stat().st_mode) for p in sorted(folder.iterdir())}


def test_ingest_search_and_incremental_runs(kb: KnowledgeBase, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.statute(docs / "TestG.pdf", abbreviation="TestG", sections=4)
    pdfs.report(docs / "report.pdf", ["Revenue grew by 12 percent in fiscal 2023 driven by cloud services."])
    first = kb.ingest([docs])
    files = _by_name(first)
    assert files["TestG.pdf"].status == "added" and files["report.pdf"].status == "added"
    assert files["TestG.pdf"].pages == 3 and files["TestG.pdf"].chunks >= 4
    assert first.pending_embeddings == 0 and first.embedded == sum(f.chunks for f in first.files)

    info = {d.file_name: d for d in kb.documents()}
    assert info["TestG.pdf"].short_name == "TestG"
    assert info["TestG.pdf"].issued == "2020-05-04"
    assert info["TestG.pdf"].language == "de" and info["report.pdf"].language == "en"

    second = kb.ingest([docs])
    assert {f.status for f in second.files} == {"unchanged"} and second.embedded == 0

    # a changed file replaces its chunks; the old text is no longer found
    pdfs.report(docs / "report.pdf", ["Operating margin fell to 8 percent because of restructuring charges."])
    third = _by_name(kb.ingest([docs]))
    assert third["report.pdf"].status == "updated"
    assert not kb.search("cloud services revenue", k=5, mode="lexical")
    assert kb.search("restructuring charges", k=5)[0].doc == "report.pdf"

    # a renamed file keeps its index; a deleted one leaves it
    (docs / "report.pdf").rename(docs / "report-2023.pdf")
    moved = _by_name(kb.ingest([docs]))
    assert moved["report-2023.pdf"].status == "moved"
    (docs / "report-2023.pdf").unlink()
    gone = _by_name(kb.ingest([docs]))
    assert gone["report-2023.pdf"].status == "removed"
    assert [d.file_name for d in kb.documents()] == ["TestG.pdf"]
    assert kb.verify() == []


def test_user_files_are_never_written(kb: KnowledgeBase, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    pdfs.statute(docs / "a.pdf")
    pdfs.report(docs / "b.pdf", ["Text."])
    for p in docs.iterdir():
        p.chmod(stat.S_IRUSR | stat.S_IRGRP)
    before = _snapshot(docs)
    kb.ingest([docs])
    kb.remove_document("a.pdf")
    assert _snapshot(docs) == before


def test_bad_inputs_each_get_a_reason_and_nothing_stored_is_lost(kb: KnowledgeBase, tmp_path: Path) -> None:
    good = tmp_path / "good"
    good.mkdir()
    pdfs.statute(good / "good.pdf", abbreviation="GutG")
    assert _by_name(kb.ingest([good]))["good.pdf"].status == "added"
    chunks_before = kb.documents()[0].chunks

    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "notes.pdf").write_text("just some text, not a PDF")
    pdfs.truncated(bad / "truncated.pdf", good / "good.pdf", keep=0.5)
    pdfs.truncated(bad / "stub.pdf", good / "good.pdf", keep=0.04)
    pdfs.encrypted(bad / "locked.pdf", good / "good.pdf", user_password="secret")
    pdfs.encrypted(bad / "empty-password.pdf", good / "good.pdf", user_password="")
    pdfs.zero_pages(bad / "zero.pdf")
    (bad / "empty.pdf").write_bytes(b"")
    shutil.copy(good / "good.pdf", bad / "copy-of-good.pdf")
    pdfs.scanned(bad / "scan.pdf")
    files = _by_name(kb.ingest([bad, tmp_path / "missing.pdf"]))

    assert files["notes.pdf"].status == "rejected" and "not a PDF" in files["notes.pdf"].reason.text
    # MuPDF repairs a truncated file and reads what is left: added, with a warning that says so
    assert files["truncated.pdf"].status == "added"
    assert any("damaged PDF" in w for w in map(str, files["truncated.pdf"].warnings))
    assert files["stub.pdf"].status == "rejected" and "damaged" in files["stub.pdf"].reason.text
    assert files["locked.pdf"].status == "rejected" and "password" in files["locked.pdf"].reason.text
    assert files["zero.pdf"].status == "rejected" and "no pages" in files["zero.pdf"].reason.text
    assert files["empty.pdf"].status == "rejected" and "empty file" in files["empty.pdf"].reason.text
    assert files["missing.pdf"].status == "rejected" and "not found" in files["missing.pdf"].reason.text
    assert files["copy-of-good.pdf"].status == "duplicate" and "good.pdf" in files["copy-of-good.pdf"].reason.text
    # encrypted with an empty user password, as many real filings are: it just works
    assert files["empty-password.pdf"].status in ("added", "duplicate")
    assert pymupdf.open(bad / "empty-password.pdf").metadata["encryption"].startswith("Standard")
    if tesseract_available():
        assert files["scan.pdf"].status == "added"
        assert any("OCR" in w for w in map(str, files["scan.pdf"].warnings))
        assert kb.search("Strahlenschutzbeauftragter", k=3, mode="lexical")[0].doc == "scan.pdf"
    else:
        assert files["scan.pdf"].status == "rejected" and "Tesseract" in files["scan.pdf"].reason.text

    # each reason and warning is a keyed notice (the window words it in its language), kept so in the catalog
    assert [files[n].reason.key for n in ("notes.pdf", "stub.pdf", "locked.pdf", "copy-of-good.pdf")] == \
        ["not_pdf", "cannot_open", "password", "duplicate"]
    stored = {d.file_name: d.warnings for d in kb.documents()}["truncated.pdf"]
    assert stored == files["truncated.pdf"].warnings and stored[0].key.startswith("damaged_")

    # the document stored before the bad batch is untouched
    assert {d.file_name: d.chunks for d in kb.documents()}["good.pdf"] == chunks_before
    assert kb.verify() == []


def test_encrypted_with_empty_password_is_ingested(kb: KnowledgeBase, tmp_path: Path) -> None:
    source = pdfs.statute(tmp_path / "plain.pdf", abbreviation="OffenG")
    folder = tmp_path / "in"
    folder.mkdir()
    pdfs.encrypted(folder / "filing.pdf", source, user_password="")
    assert pymupdf.open(folder / "filing.pdf").metadata["encryption"]  # really encrypted
    report = kb.ingest([folder])
    assert report.files[0].status == "added" and report.files[0].chunks > 0
    assert kb.search("OffenG § 2", k=3)[0].doc == "filing.pdf"


def test_scanned_pages_warn_without_ocr(app_paths, tmp_path: Path) -> None:  # noqa: ANN001
    settings = Settings().changed(kb={"ingest_workers": 0, "ocr": False})
    text_pdf = pdfs.statute(tmp_path / "t.pdf", sections=2)
    scan_pdf = pdfs.scanned(tmp_path / "s.pdf")
    mixed = pymupdf.open(text_pdf)
    mixed.insert_pdf(pymupdf.open(scan_pdf))
    mixed.save(tmp_path / "mixed.pdf")
    with KnowledgeBase.open(app_paths, settings, "NoOcr", create=True) as kb:
        files = _by_name(kb.ingest([tmp_path / "mixed.pdf", scan_pdf]))
    assert files["mixed.pdf"].status == "added"
    assert any("without a text layer (p. 3)" in w for w in map(str, files["mixed.pdf"].warnings))
    assert files["s.pdf"].status == "rejected" and "no text layer" in files["s.pdf"].reason.text


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file regardless of permissions")
def test_unreadable_file_is_reported(kb: KnowledgeBase, tmp_path: Path) -> None:
    path = pdfs.statute(tmp_path / "secret.pdf")
    path.chmod(0)
    try:
        report = kb.ingest([path])
    finally:
        path.chmod(0o600)
    assert report.files[0].status == "rejected" and "permission denied" in report.files[0].reason.text


def test_unreadable_folder_entry_is_reported(kb: KnowledgeBase, tmp_path: Path) -> None:
    # a dangling symlink stands for a path that exists in the folder listing but cannot be read
    (tmp_path / "link.pdf").symlink_to(tmp_path / "nowhere.pdf")
    report = kb.ingest([tmp_path / "link.pdf"])
    assert report.files[0].status == "rejected" and "cannot read" in report.files[0].reason.text
    assert not report.did_something


def test_progress_events_and_worker_processes(app_paths, tmp_path: Path) -> None:  # noqa: ANN001
    settings = Settings().changed(kb={"ingest_workers": 2, "pages_per_task": 3})
    path = pdfs.statute(tmp_path / "big.pdf", sections=24)  # 13 pages → 5 page ranges over 2 processes
    events: list[IngestProgress] = []
    with KnowledgeBase.open(app_paths, settings, "Workers", create=True) as kb:
        report = kb.ingest([path], progress=events.append)
        assert report.files[0].status == "added" and report.files[0].pages == 13
        sections = [c.section for c in kb.catalog.chunks_where("1 = 1")]
    assert [s for s in dict.fromkeys(sections) if s] == [f"§ {n}" for n in range(1, 25)]
    stages = [e.stage for e in events]
    assert stages[0] == "extract" and stages[-1] == "done" and "embed" in stages
    pages = [e.pages_done for e in events if e.stage == "extract"]
    assert pages == sorted(pages) and max(pages) == 13
    assert all(e.eta_s is not None for e in events)
    embedded = [e.embedded for e in events if e.stage == "embed"]
    assert embedded == sorted(embedded)


def test_cancel_keeps_committed_work_and_next_run_completes(kb: KnowledgeBase, tmp_path: Path) -> None:
    folder = tmp_path / "docs"
    folder.mkdir()
    for i in range(3):
        pdfs.statute(folder / f"law{i}.pdf", abbreviation=f"Law{i}G", sections=3)
    token = CancelToken()

    def cancel_after_first_file(p: IngestProgress) -> None:
        if p.files_done >= 1:
            token.cancel()

    report = kb.ingest([folder], progress=cancel_after_first_file, cancel=token)
    assert report.cancelled
    assert [f.status for f in report.files] == ["added"]
    assert [d.file_name for d in kb.documents()] == ["law0.pdf"]
    assert kb.verify() == []
    again = kb.ingest([folder])
    assert sorted(f.status for f in again.files) == ["added", "added", "unchanged"]
    assert again.pending_embeddings == 0 and kb.verify() == []


def test_warnings_stored_as_sentences_by_an_older_version_still_read(kb: KnowledgeBase, tmp_path: Path) -> None:
    pdfs.report(tmp_path / "a.pdf", ["Strahlenschutz ist wichtig."])
    kb.ingest([tmp_path / "a.pdf"])
    with kb.catalog.transaction() as db:
        db.execute("UPDATE documents SET warnings = ?", ('["2 page(s) read by OCR (p. 1, 2)"]',))
    (doc,) = kb.documents()
    assert [(w.key, w.text) for w in doc.warnings] == [("text", "2 page(s) read by OCR (p. 1, 2)")]
