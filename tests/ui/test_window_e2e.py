"""The whole job in the real window: first start builds the sample knowledge base, a PDF is dropped in,
a question is asked and answered, the plan approved, the report shown, and a citation clicked opens the
PDF viewer at the cited page with the quote highlighted. Real bridge, engine, knowledge base and
``ollama`` client; the LLM is the fake server answering as a scripted research model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.qt_text import anchor_point
from support.research_llm import QUESTION_DE, ResearchLLM

from desktop.kb.storage.registry import SAMPLE_DB
from desktop.ui.main_window import MainWindow

MODEL = "research-test:latest"
SLOW_MS = 180_000  # the sample database and a full research run on a loaded two-core machine


@pytest.fixture
def fake_llm() -> Iterator[FakeOllama]:
    with FakeOllama([chat_model(MODEL, "qwen3", 32768)], responder=ResearchLLM()) as fake:
        yield fake


@pytest.fixture
def window(open_window: Callable[[str, str, float], MainWindow], fake_llm: FakeOllama) -> MainWindow:
    return open_window(fake_llm.url, MODEL, 20)


def _pdf(path: Path) -> Path:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 100), "Merkblatt zur Dosimetrie: Die Messstelle wertet die Dosimeter monatlich aus.")
    doc.save(path)
    doc.close()
    return path


def _drop(target: Any, paths: list[Path]) -> None:
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(QPointF(10, 10), Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton,
                       Qt.KeyboardModifier.NoModifier)
    target.dropEvent(event)


def _pending(win: MainWindow, kind: str) -> bool:
    return win.state is not None and win.state.waiting_for == kind


@pytest.mark.slow
def test_from_first_start_to_a_highlighted_citation(qtbot: Any, window: MainWindow, tmp_path: Path) -> None:
    errors: list[str] = []
    window.bridge.error.connect(errors.append)

    # first start: the sample knowledge base is built and listed
    assert window.prepare_first_start()
    with qtbot.waitSignal(window.bridge.ingestFinished, timeout=SLOW_MS) as first:
        pass
    assert not first.args[0].embed_error
    qtbot.waitUntil(lambda: window.kb.model.rowCount() >= 3, timeout=SLOW_MS)
    assert window.kb.database == SAMPLE_DB and not window.prepare_first_start()

    # a PDF dropped on the sidebar is ingested and listed with its chunks
    with qtbot.waitSignal(window.bridge.ingestFinished, timeout=SLOW_MS) as added:
        _drop(window.kb, [_pdf(tmp_path / "Merkblatt Dosimetrie.pdf")])
    assert added.args[0].count("added") == 1
    qtbot.waitUntil(lambda: any(d.file_name == "Merkblatt Dosimetrie.pdf" and d.chunks
                                for d in window.kb.model.docs), timeout=SLOW_MS)

    # the question; the clarification round's questions; an answer that ends clarification
    window.chat.input.setPlainText(QUESTION_DE)
    qtbot.mouseClick(window.chat.send, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: _pending(window, "answer"), timeout=SLOW_MS)
    assert window.tabs.currentWidget() is window.chat
    assert window.state.current_round.questions[0] in window.chat.transcript.toPlainText()
    window.chat.input.setPlainText("Nur beruflich exponierte Erwachsene.")
    qtbot.mouseClick(window.chat.end, Qt.MouseButton.LeftButton)

    # the plan, approved as proposed
    qtbot.waitUntil(lambda: _pending(window, "approve_plan"), timeout=SLOW_MS)
    assert window.tabs.currentWidget() is window.plan and window.plan.model.rowCount() >= 1
    qtbot.waitUntil(window.plan.approve.isEnabled, timeout=SLOW_MS)
    qtbot.mouseClick(window.plan.approve, Qt.MouseButton.LeftButton)

    # the report, with its answer and citations
    qtbot.waitUntil(lambda: window.state is not None and window.state.report is not None, timeout=SLOW_MS)
    report = window.state.report
    qtbot.waitUntil(lambda: window.tabs.currentWidget() is window.report, timeout=SLOW_MS)
    cited = next(c for c in report.citations if c.quote_verified and c.rects)

    # a click on its marker opens the viewer at the cited page, the quote highlighted
    point = anchor_point(window.report.answer_browser, f"cite:{cited.n}")
    qtbot.mouseClick(window.report.answer_browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    viewer = window.viewer
    qtbot.waitUntil(lambda: viewer.current_page() == cited.page, timeout=10_000)
    assert window.viewer_dock.isVisible()
    assert viewer.path == Path(cited.path).resolve()
    assert viewer.view.highlights == {cited.page - 1: cited.rects}
    assert errors == []


def test_the_banner_says_what_to_do_when_the_llm_is_not_ready(qtbot: Any, window: MainWindow) -> None:
    from desktop.llm.types import Health

    qtbot.waitUntil(lambda: window.llm_status.text() != "", timeout=10_000)  # the window's own first check is in
    window._health(Health(ok=False, backend="ollama", host="http://127.0.0.1:9", message="Ollama is not running"))
    assert window.banner.isVisibleTo(window) and "does not answer" in window.banner.text()
    assert "Details: Ollama is not running" in window.banner.text() and window.llm_status.text() == "LLM: not ready"
    window._health(Health(ok=True, backend="ollama", host="h", models=["other:1b"], message="model missing"))
    assert f"The model {MODEL} is not on the LLM server" in window.banner.text()
    window._health(Health(ok=True, backend="ollama", host="h", models=[MODEL], model_ready=True, message="ok"))
    assert not window.banner.isVisibleTo(window) and MODEL in window.llm_status.text()
