"""Adding PDFs says where they go, lists them as soon as they are read (not once embedded), and a long
file name keeps both its ends visible."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop.bridge.kb_views import IngestProgressView
from desktop.kb.storage.registry import SAMPLE_DB
from desktop.paths import AppPaths
from desktop.settings import Settings
from desktop.ui.kb_panel import KnowledgeBasePanel
from desktop.ui.main_window import MainWindow


def test_the_dialogs_and_the_progress_name_the_database(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    panel = KnowledgeBasePanel()
    qtbot.addWidget(panel)
    panel.set_databases(["Akten 2024", "Sample"], select="Akten 2024")
    titles: list[str] = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda parent, title, *a: (titles.append(title), ([], ""))[1])
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda parent, title, *a: (titles.append(title), "")[1])
    panel.add_files()
    panel.add_folder()
    assert len(titles) == 2 and all("“Akten 2024”" in t for t in titles)
    panel.set_ingesting(True)
    assert "“Akten 2024”" in panel.progress_label.text()
    assert panel.table.textElideMode() == Qt.TextElideMode.ElideMiddle


def test_new_documents_are_listed_when_embedding_begins(qtbot: Any, open_window: Callable[..., MainWindow],
                                                        sample_paths: tuple[AppPaths, Settings],
                                                        app_paths: AppPaths) -> None:
    sample, _ = sample_paths
    shutil.copytree(sample.database_dir(SAMPLE_DB), app_paths.database_dir(SAMPLE_DB))
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        window._ingesting_into = SAMPLE_DB  # as after a drop on the sidebar
        with qtbot.waitSignal(window.bridge.documentsChanged, timeout=20_000) as listed:
            window._ingest_progress(IngestProgressView(stage="embed", files_done=1, files_total=1, pages_done=1,
                                                       pages_total=1, embedded=0, to_embed=12, eta_s=None))
        assert listed.args[0] == SAMPLE_DB and len(listed.args[1]) == 5


def test_the_ingestion_report_gives_pages_chunks_warnings_and_time(qtbot: Any) -> None:
    from PySide6.QtWidgets import QMessageBox

    from desktop.bridge.kb_views import FileView, IngestReportView, notice_view
    from desktop.kb.ingestion.notices import notice

    panel = KnowledgeBasePanel()
    qtbot.addWidget(panel)
    ocr = notice_view(notice("ocr_pages", count=1, pages="3"))
    panel.show_report(IngestReportView(database="Akten", elapsed_s=12.4, cancelled=False, embedded=40,
                                       pending_embeddings=0, embed_error=None, files=(
        FileView("/in/Bescheid.pdf", "added", None, (ocr,), 7, 31),
        FileView("/in/notes.txt", "rejected", notice_view(notice("not_pdf")), (), 0, 0))))
    box = next(b for b in panel.findChildren(QMessageBox) if b.isVisible())  # opens itself: a file was rejected
    text = box.text()
    assert text.startswith("“Akten”: 2 files in 12 s")
    assert "added: Bescheid.pdf — 7 pages, 31 chunks" in text and "1 page(s) read by OCR (p. 3): check quotes against the page" in text
    assert "rejected: notes.txt — not a PDF (no PDF header)" in text
    box.close()


def test_the_sidebar_says_which_databases_are_still_to_embed(qtbot: Any, open_window: Callable[..., MainWindow],
                                                              sample_paths: tuple[AppPaths, Settings],
                                                              app_paths: AppPaths, tmp_path) -> None:  # noqa: ANN001
    """A second database whose embedding stopped half-way (as when the window closed during an ingest):
    the sidebar names it with its count while the sample, fully embedded, is not named."""
    from support import pdfs

    from desktop.kb.database import KnowledgeBase
    from desktop.kb.progress import CancelToken

    sample, settings = sample_paths
    shutil.copytree(sample.database_dir(SAMPLE_DB), app_paths.database_dir(SAMPLE_DB))
    pdfs.statute(tmp_path / "NeuG.pdf", abbreviation="NeuG", sections=3)
    cancel = CancelToken()
    with KnowledgeBase.open(app_paths, settings, "Akten", create=True) as kb:
        kb.ingest([tmp_path / "NeuG.pdf"], cancel=cancel, progress=lambda p: cancel.cancel() if p.stage == "embed" else None)
        pending = kb.pending_embeddings()
    assert pending > 0
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        qtbot.waitUntil(lambda: window.kb.backlog.isVisible(), timeout=20_000)
        assert window.kb.backlog.text() == f"Still to embed (found by their words until then): Akten: {pending}"
        window.kb.set_backlog({})
        assert not window.kb.backlog.isVisible()
