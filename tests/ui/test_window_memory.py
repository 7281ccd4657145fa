"""The window opens as it was left: size, docks and splitters, the open PDF and page, the database and
the run it showed (before, every start began from the defaults)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from PySide6.QtCore import QRect
from PySide6.QtWidgets import QSplitter
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model
from support.stored_run import stored_run

from desktop.bridge.views import run_view
from desktop.paths import AppPaths
from desktop.ui.main_window import MainWindow
from desktop.ui.window_memory import recall, remember

LAW = Path(__file__).resolve().parents[2] / "kb" / "StrlSchG.pdf"


def test_the_next_window_opens_as_the_last_was_left(qtbot: Any, open_window: Callable[..., MainWindow],
                                                    app_paths: AppPaths) -> None:
    state = stored_run(app_paths, "Welche Grenzwerte gelten für die Bevölkerung?")
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        first = open_window(fake.url, "m:latest", 20)
        screen = first.screen().availableGeometry()
        first.resize(screen.width() - 201, screen.height() - 151)  # a size the screen holds, not the default
        size = (first.width(), first.height())  # as far as the window's minimum size allows
        assert size != (1400, 880)
        first.show_run(run_view(state))
        first.viewer.open(LAW, 52)
        qtbot.waitUntil(lambda: first.viewer.current_page() == 52, timeout=10_000)
        split = first.findChild(QSplitter, "chat-split")
        split.setSizes([500, 80])
        sizes = split.sizes()
        remember(app_paths, first)

        second = open_window(fake.url, "m:latest", 20)
        recall(app_paths, second)
        assert (second.width(), second.height()) == size
        assert second.findChild(QSplitter, "chat-split").sizes() == sizes
        assert second.viewer.path == LAW.resolve()
        qtbot.waitUntil(lambda: second.viewer.current_page() == 52, timeout=10_000)
        qtbot.waitUntil(lambda: second.state is not None and second.state.run_id == state.run_id, timeout=20_000)


def test_a_damaged_memory_is_ignored(qtbot: Any, open_window: Callable[..., MainWindow], app_paths: AppPaths) -> None:
    app_paths.window_file.write_text("{not json", encoding="utf-8")
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        recall(app_paths, window)  # opens as on a first start, no error
        assert window.state is None and window.viewer.path is None


def test_a_first_window_gives_the_pdf_room_to_read_a_page(qtbot: Any, open_window: Callable[..., MainWindow],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """The default pane (520 px of a 1500 px window, less once shown) drew a page at about 54 %."""
    desktop_screen = SimpleNamespace(availableGeometry=lambda: QRect(0, 0, 1920, 1040))  # the test screen is 800 px
    monkeypatch.setattr(MainWindow, "screen", lambda self: desktop_screen)
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        qtbot.waitUntil(lambda: window.viewer_dock.width() >= 0.35 * window.width() > window.kb_dock.width(),
                        timeout=5000)
        window.viewer.open(LAW, 52)
        qtbot.waitUntil(lambda: window.viewer.zoom_label.text().endswith("%"), timeout=10_000)
        assert window.viewer.view.effective_zoom() >= 0.6
