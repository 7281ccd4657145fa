"""A citation clicked in the report opens its page; one whose quote was not verified says why nothing
is highlighted (before, the page opened without a highlight and without a word)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

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
