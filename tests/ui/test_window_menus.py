"""The window's Help and Language menus, and times shown as the local clock shows them."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import pytest
from PySide6.QtWidgets import QMessageBox
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop import __version__
from desktop.bridge.views import RunSummaryView
from desktop.ui.history_dialog import RunHistoryDialog
from desktop.ui.main_window import MainWindow


@pytest.fixture
def window(open_window: Callable[..., MainWindow]) -> Any:
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        yield open_window(fake.url, "m:latest", 20)


def test_the_language_menu_marks_the_choice_and_offers_the_system_language(qtbot: Any, window: MainWindow) -> None:
    actions = {a.data(): a for a in window.language_group.actions()}
    assert set(actions) == {"system", "en", "de"}
    assert actions["system"].isChecked() and not actions["de"].isChecked()  # the default setting
    with qtbot.waitSignal(window.languageRequested) as asked:
        actions["de"].trigger()
    assert asked.args == ["de"]
    requested: list[str] = []
    window.languageRequested.connect(requested.append)
    actions["system"].trigger()  # the language in use: nothing to rebuild
    assert requested == []


def test_about_names_the_version(qtbot: Any, window: MainWindow) -> None:
    window._about()
    box = next(b for b in window.findChildren(QMessageBox) if b.isVisible())
    assert __version__ in box.text() and str(window.bridge.paths.data_dir) in box.text()
    box.close()


def test_history_shows_local_time(qtbot: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Europe/Berlin")
    time.tzset()
    try:
        dialog = RunHistoryDialog([RunSummaryView("a", "Q", "Sample", "done", "report", "2026-11-22T10:30:00+00:00")])
        qtbot.addWidget(dialog)
        assert dialog.table.item(0, 4).text() == "2026-11-22 11:30"  # stored in UTC, shown in Berlin time
    finally:
        monkeypatch.undo()
        time.tzset()
