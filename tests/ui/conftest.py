"""The window's tests see what an English user sees: the English translator (plural forms) installed.
Each test leaves the clipboard empty: mime data still on the offscreen platform's clipboard when
Python exits crashes the process (Qt's offscreen plugin; exit code 139 after a green run)."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication

from desktop.bridge.bridge import EngineBridge
from desktop.kb.search.vector_process import serve_vectors_from_child_process
from desktop.paths import AppPaths
from desktop.settings import Settings
from desktop.ui import i18n
from desktop.ui.main_window import MainWindow
from desktop.ui.pdf_viewer import PdfViewer


@pytest.fixture(autouse=True)
def english(qapp: QApplication) -> Iterator[None]:
    assert i18n.install(qapp, "en") == "en"
    yield
    qapp.clipboard().clear()


@pytest.fixture
def open_window(qtbot: Any, app_paths: AppPaths) -> Iterator[Callable[[str, str, float], MainWindow]]:
    """The whole window on ``app_paths``, wired as the app wires it, for an LLM server, model and
    timeout (and other LLM settings); closed and shut down after the test."""
    opened: list[tuple[MainWindow, EngineBridge]] = []

    def open_(host: str, model: str, timeout_s: float, **llm: Any) -> MainWindow:
        settings = Settings().changed(llm={"host": host, "model": model, "timeout_s": timeout_s, **llm})
        serve_vectors_from_child_process()  # as the composition root does (undone after each test)
        bridge = EngineBridge(app_paths, settings)
        win = MainWindow(bridge)
        qtbot.addWidget(win)
        win.show()
        opened.append((win, bridge))
        return win

    yield open_
    for win, bridge in opened:
        win.close()
        bridge.shutdown()


@pytest.fixture
def viewer(qtbot: Any) -> PdfViewer:
    """A PDF viewer on its own, shown at 900 × 700."""
    widget = PdfViewer()
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show()
    qtbot.waitExposed(widget)
    return widget
