"""The window's tests see what an English user sees: the English translator (plural forms) installed."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from desktop.ui import i18n


@pytest.fixture(autouse=True)
def english(qapp: QApplication) -> None:
    assert i18n.install(qapp, "en") == "en"
