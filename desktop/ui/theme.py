"""Light or dark, following the system (Qt 6.5+ reports the colour scheme and its changes)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


def dark_palette() -> QPalette:
    p = QPalette()
    colors = {
        QPalette.ColorRole.Window: "#202124", QPalette.ColorRole.WindowText: "#e8eaed",
        QPalette.ColorRole.Base: "#17181a", QPalette.ColorRole.AlternateBase: "#26282b",
        QPalette.ColorRole.Text: "#e8eaed", QPalette.ColorRole.Button: "#2b2d30",
        QPalette.ColorRole.ButtonText: "#e8eaed", QPalette.ColorRole.Highlight: "#3b82f6",
        QPalette.ColorRole.HighlightedText: "#ffffff", QPalette.ColorRole.ToolTipBase: "#2b2d30",
        QPalette.ColorRole.ToolTipText: "#e8eaed", QPalette.ColorRole.Link: "#93c5fd",
        QPalette.ColorRole.PlaceholderText: "#9aa0a6",
    }
    for role, color in colors.items():
        p.setColor(role, QColor(color))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#6b7280"))
    p.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#6b7280"))
    return p


def is_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


def apply_theme(app: QApplication) -> None:
    """Fusion everywhere (the same look on Linux, Windows and macOS), in the system's scheme."""
    app.setStyle("Fusion")

    def follow() -> None:
        app.setPalette(dark_palette() if is_dark() else app.style().standardPalette())

    follow()
    app.styleHints().colorSchemeChanged.connect(lambda _scheme: follow())
