"""The window's tests see what an English user sees: the English translator (plural forms) installed.
Each test leaves the clipboard empty: mime data still on the offscreen platform's clipboard when
Python exits crashes the process (Qt's offscreen plugin; exit code 139 after a green run)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtWidgets import QApplication

from desktop.ui import i18n


@pytest.fixture(autouse=True)
def english(qapp: QApplication) -> Iterator[None]:
    assert i18n.install(qapp, "en") == "en"
    yield
    qapp.clipboard().clear()
