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


def test_help_opens_the_user_guide_beside_the_window(qtbot: Any, window: MainWindow) -> None:
    from PySide6.QtGui import QKeySequence

    guide = next(a for a in window.menuBar().actions() if a.text() == "&Help").menu().actions()[0]
    assert guide.text() == "User guide" and guide.shortcut() == QKeySequence("F1")
    guide.trigger()
    assert window.guide is not None and window.guide.isVisible() and not window.guide.isModal()
    assert "Rabbithole" in window.guide.browser.toPlainText()
    first = window.guide
    window.guide.close()
    guide.trigger()  # one guide, shown again
    assert window.guide is first and first.isVisible()


def test_actions_and_buttons_carry_icons_and_the_pdf_toolbars_show_only_icons(window: MainWindow) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QAbstractButton, QToolBar

    menus = [a.menu() for a in window.menuBar().actions()]
    commands = [a for m in menus for a in m.actions()
                if not a.isSeparator() and a.menu() is None and a not in window.language_group.actions()
                and a not in (window.viewer_dock.toggleViewAction(), window.kb_dock.toggleViewAction())]
    assert commands and all(not a.icon().isNull() for a in commands), [a.text() for a in commands if a.icon().isNull()]
    buttons = [b for panel in (window.kb, window.chat, window.plan, window.progress, window.report)
               for b in panel.findChildren(QAbstractButton) if b.text() or b.toolTip()]
    named = {b.text() or b.toolTip() for b in buttons if not b.icon().isNull()}
    assert {"Add PDFs…", "Start research", "Approve plan and start research", "Stop", "Copy answer"} <= named
    bars = window.viewer.findChildren(QToolBar)
    assert len(bars) == 2 and all(b.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonIconOnly for b in bars)
    assert all(not a.icon().isNull() for b in bars for a in b.actions() if not a.isSeparator() and a.text())
    from desktop.ui import icons

    assert all(not icons.icon(meaning).isNull() for meaning in icons.NAMES)  # each name is in the icon font


def test_errors_are_said_in_a_banner_not_a_modal_box(qtbot: Any, window: MainWindow) -> None:
    window.bridge.error.emit("ingest: the disk is full")
    qtbot.waitUntil(window.error_banner.isVisible, timeout=5000)
    assert window.error_banner.text() == "ingest: the disk is full"
    assert not any(b.isVisible() for b in window.findChildren(QMessageBox))
    window.error_banner.close_button.click()
    assert not window.error_banner.isVisible()


def test_a_closed_panel_comes_back_from_the_view_menu(qtbot: Any, window: MainWindow) -> None:
    view = next(a.menu() for a in window.menuBar().actions() if a.text() == "&View")
    panels = {a.text(): a for a in view.actions() if a.isCheckable()}
    assert {"Knowledge base", "PDF"} <= set(panels)
    window.kb_dock.close()
    assert not window.kb_dock.isVisible() and not panels["Knowledge base"].isChecked()
    panels["Knowledge base"].trigger()
    assert window.kb_dock.isVisible()


def test_the_first_window_fits_the_screen(window: MainWindow) -> None:
    room = window.screen().availableGeometry()  # 800 × 800 on the test platform: 880 px asked for
    assert window.height() <= room.height()
