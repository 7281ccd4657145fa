"""A text size and a high-contrast scheme the reader chooses in the settings, applied at once."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication
from support.fake_ollama import FakeOllama
from support.fake_ollama_replies import chat_model

from desktop.settings import Settings
from desktop.ui.main_window import MainWindow
from desktop.ui.theme import apply_theme


@pytest.fixture
def app(qapp: QApplication) -> Iterator[QApplication]:
    size = qapp.font().pointSizeF()
    apply_theme(qapp)
    yield qapp
    apply_theme(qapp)  # the next test sees the default again
    assert qapp.font().pointSizeF() == pytest.approx(size)


def test_high_contrast_and_a_larger_text(app: QApplication) -> None:
    base = app.font().pointSizeF()
    apply_theme(app, "high_contrast", 150)
    palette = app.palette()
    assert palette.color(QPalette.ColorRole.Window).name() == "#000000"
    assert palette.color(QPalette.ColorRole.Text).name() == "#ffffff"
    assert palette.color(QPalette.ColorRole.Highlight).name() == "#ffff00"
    assert app.font().pointSizeF() == pytest.approx(1.5 * base)
    assert "border: 1px solid #ffffff" in app.styleSheet()  # inputs keep a visible frame on black
    apply_theme(app, "dark", 100)
    assert app.styleSheet() == ""
    assert palette.color(QPalette.ColorRole.Window) != app.palette().color(QPalette.ColorRole.Window)
    assert app.font().pointSizeF() == pytest.approx(base)  # scaled from the system's size, not the last one


def test_the_settings_apply_them_at_once(qtbot: Any, app: QApplication,
                                         open_window: Callable[..., MainWindow]) -> None:
    with FakeOllama([chat_model("m:latest", "qwen3", 32768)]) as fake:
        window = open_window(fake.url, "m:latest", 20)
        before = window.bridge.settings
        base = app.font().pointSizeF()
        window._settings_applied(before, before.changed(ui={"theme": "high_contrast", "text_size": 130}))
        assert app.palette().color(QPalette.ColorRole.Base).name() == "#000000"
        qtbot.waitUntil(lambda: window.chat.send.font().pointSizeF() == pytest.approx(1.3 * base), timeout=5000)
        assert window.kb_status.font().pointSizeF() == pytest.approx(1.3 * base)


def test_the_interface_settings_offer_size_and_colours() -> None:
    from desktop.ui.settings_texts import CHOICES, label

    assert label("ui.text_size") == "Text size (%)" and label("ui.theme") == "Colours"
    assert set(CHOICES["ui.theme"]) == {"system", "light", "dark", "high_contrast"}
    with pytest.raises(ValueError):
        Settings().changed(ui={"text_size": 300})
