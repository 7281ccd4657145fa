"""View → Language builds the window anew on the same bridge: switched twice, during a waiting run and
during an ingestion, the new window shows the same run, log and ingestion, and a new question and an
ingest then work and show the right run."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pymupdf
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.research_llm import QUESTION_DE, QUESTION_EN, ResearchLLM

from desktop.bridge.bridge import EngineBridge
from desktop.kb.storage.registry import SAMPLE_DB
from desktop.kb.search.vector_process import serve_vectors_from_child_process
from desktop.paths import AppPaths
from desktop.report.model import Rect
from desktop.settings import Settings
from desktop.ui.main_window import MainWindow
from desktop.ui.window_host import WindowHost

MODEL = "research-test:latest"
WAIT_MS = 120_000


def _pdf(path: Path) -> Path:
    with pymupdf.open() as doc:
        doc.new_page().insert_text((72, 100), "Merkblatt zur Dosimetrie: Die Messstelle wertet monatlich aus.")
        doc.save(path)
    return path


def _waiting(win: MainWindow, kind: str) -> bool:
    return win.state is not None and win.state.waiting_for == kind


def test_switching_the_language_twice_keeps_the_run_and_the_work(
        qtbot: Any, qapp: QApplication, sample_paths: tuple[AppPaths, Settings], app_paths: AppPaths,
        tmp_path: Path) -> None:
    sample, _ = sample_paths
    shutil.copytree(sample.database_dir(SAMPLE_DB), app_paths.database_dir(SAMPLE_DB))
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=ResearchLLM()) as fake:
        settings = Settings().changed(llm={"host": fake.url, "model": MODEL, "timeout_s": 20})
        serve_vectors_from_child_process()  # as the composition root does (undone after the test)
        bridge = EngineBridge(app_paths, settings)
        host = WindowHost(qapp, bridge, app_paths)
        errors: list[str] = []
        bridge.error.connect(errors.append)
        try:
            win = host.open()
            qtbot.waitUntil(lambda: win.kb.model.rowCount() >= 5, timeout=WAIT_MS)
            win.chat.input.setPlainText(QUESTION_DE)
            qtbot.mouseClick(win.chat.send, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: _waiting(win, "answer"), timeout=WAIT_MS)
            run_id, log = win.state.run_id, win.progress.log.toPlainText()
            assert log

            marked = [Rect(x0=72, y0=60, x1=200, y1=80)]
            assert win.viewer.open(_pdf(tmp_path / "Zitat.pdf"), 1, marked)
            german = host.switch_language("de")  # during a run that waits for the user
            assert german.viewer.view.highlights == {0: marked}  # the highlight stays on its page
            assert german.viewer.place is not None and german.viewer.place.rects == tuple(marked)
            assert german.state is not None and german.state.run_id == run_id and _waiting(german, "answer")
            assert german.tabs.currentWidget() is german.chat and QUESTION_DE in german.chat.transcript.toPlainText()
            german_log = german.progress.log.toPlainText()  # the same lines, worded in German
            assert len(german_log.splitlines()) == len(log.splitlines()) and german.kb.database == SAMPLE_DB
            assert "Round 1, searched" in log and "Runde 1, gesucht" in german_log and "searched" not in german_log
            assert german.chat.send.text() == "Antwort senden"

            finished: list[object] = []
            bridge.ingestFinished.connect(finished.append)
            german.kb.ingestRequested.emit(SAMPLE_DB, [_pdf(tmp_path / "Merkblatt.pdf")])
            english = host.switch_language("en")  # during the ingestion
            assert not english.kb.progress.isHidden()  # it is shown as still running
            qtbot.waitUntil(lambda: bool(finished), timeout=WAIT_MS)
            qtbot.waitUntil(lambda: any(d.file_name == "Merkblatt.pdf" for d in english.kb.model.docs), timeout=WAIT_MS)
            assert english.kb.progress.isHidden() and english.kb.last_report is not None
            assert english.state is not None and english.state.run_id == run_id

            english.kb.ingestRequested.emit(SAMPLE_DB, [_pdf(tmp_path / "Zweites Merkblatt.pdf")])  # an ingest works
            qtbot.waitUntil(lambda: any(d.file_name == "Zweites Merkblatt.pdf" for d in english.kb.model.docs),
                            timeout=WAIT_MS)
            qtbot.waitUntil(lambda: len(finished) == 2, timeout=WAIT_MS)
            english._new_question()
            english.chat.input.setPlainText(QUESTION_EN)
            qtbot.mouseClick(english.chat.send, Qt.MouseButton.LeftButton)
            qtbot.waitUntil(lambda: _waiting(english, "answer") and english.state.run_id != run_id, timeout=WAIT_MS)
            transcript = english.chat.transcript.toPlainText()
            assert QUESTION_EN in transcript and QUESTION_DE not in transcript
            assert english.kb.progress_label.text() == "1 added"
            final = host.switch_language("de")  # the last ingestion's summary is worded again, not copied
            assert final.kb.progress_label.text() == "1 hinzugefügt" and final.state.run_id == english.state.run_id
            assert errors == []
        finally:
            if host.window is not None:
                host.window.close()
            bridge.shutdown()
