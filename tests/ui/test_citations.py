"""A citation clicked in the report opens its page; one whose quote was not verified says why nothing
is highlighted (before, the page opened without a highlight and without a word)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QTreeWidgetItem
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop.report.model import Citation
from desktop.ui.main_window import MainWindow

LAW = Path(__file__).resolve().parents[2] / "kb" / "StrlSchG.pdf"


def test_an_unverified_citation_says_why_nothing_is_highlighted(qtbot: Any,
                                                               open_window: Callable[..., MainWindow]) -> None:
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        unverified = Citation(n=3, doc=LAW.name, doc_id="d", path=str(LAW), page=52, quote=None, quote_verified=False)
        window.open_citation(unverified)
        viewer = window.viewer
        qtbot.waitUntil(lambda: viewer.current_page() == 52, timeout=10_000)
        assert viewer.view.highlights == {} and not viewer.notice.isHidden()
        assert "[3]" in viewer.notice.text() and "not found in the document" in viewer.notice.text()

        verified = unverified.model_copy(update={"quote": "Grenzwert für die Berufslebensdosis", "quote_verified": True})
        window.open_citation(verified)  # found in the page's text: highlighted, nothing to say
        assert viewer.view.highlights and viewer.notice.isHidden()


def test_find_reaches_the_pdf_search_from_anywhere_in_the_window(qtbot: Any,
                                                                 open_window: Callable[..., MainWindow]) -> None:
    """Ctrl+F reaches the search from anywhere; the viewer's other keys (PgUp, PgDown, zoom) only act with
    the focus in it — they were window-wide. (The offscreen platform activates no window, so no key
    reaches a shortcut here: the shortcuts themselves are checked, and what Find does.)"""
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        find = QKeySequence(QKeySequence.StandardKey.Find)
        shortcuts = [s for s in window.findChildren(QShortcut) if s.key() == find]
        assert len(shortcuts) == 1  # one owner of the key: two would be ambiguous and neither would fire
        assert shortcuts[0].context() == Qt.ShortcutContext.WindowShortcut
        page_down = QKeySequence("PgDown")  # the viewer's own keys act only with the focus in it
        assert [s.context() for s in window.viewer.findChildren(QShortcut) if s.key() == page_down] == [
            Qt.ShortcutContext.WidgetWithChildrenShortcut]
        window.viewer.search_box.setText("Grenzwert")
        shortcuts[0].activated.emit()
        assert window.viewer.search_box.selectedText() == "Grenzwert"  # ready to type over


def test_a_retrieved_passage_opens_its_page(qtbot: Any, open_window: Callable[..., MainWindow]) -> None:
    """The passages clarification retrieved could be expanded, not opened."""
    from desktop.bridge.kb_views import DocumentView
    from desktop.bridge.views import ChunkView

    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        window.kb.set_documents([DocumentView("d-law", LAW.name, str(LAW), "StrlSchG", "StrlSchG", 132, 686, (),
                                              {}, (), 0)])
        chunk = ChunkView("c1", LAW.name, 52, "§ 77 Grenzwert für die Berufslebensdosis", "d-law")
        with qtbot.waitSignal(window.chat.chunkOpened) as opened:
            top = window.chat.chunks.invisibleRootItem()
            item = QTreeWidgetItem(["§ 77 …", LAW.name, "52"])
            item.setData(0, Qt.ItemDataRole.UserRole, chunk)
            top.addChild(item)
            window.chat.chunks.itemDoubleClicked.emit(item, 0)
        assert opened.args == [chunk]
        qtbot.waitUntil(lambda: window.viewer.current_page() == 52, timeout=10_000)
        assert window.viewer.path == LAW.resolve()
