"""The window's colours and text size: light or dark following the system (Qt 6.5+ reports the colour scheme
and its changes), or chosen — also a high-contrast scheme — and the text at a size the reader sets."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QGuiApplication, QPalette
from PySide6.QtWidgets import QApplication


R = QPalette.ColorRole


def _palette(colors: dict[QPalette.ColorRole, str], disabled: str,
             disabled_roles: tuple[QPalette.ColorRole, ...]) -> QPalette:
    """A palette of ``colors``; ``disabled_roles`` greyed to ``disabled`` in the disabled group."""
    p = QPalette()
    for role, color in colors.items():
        p.setColor(role, QColor(color))
    for role in disabled_roles:
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(disabled))
    return p


def dark_palette() -> QPalette:
    return _palette({
        R.Window: "#202124", R.WindowText: "#e8eaed", R.Base: "#17181a", R.AlternateBase: "#26282b",
        R.Text: "#e8eaed", R.Button: "#2b2d30", R.ButtonText: "#e8eaed", R.Highlight: "#3b82f6",
        R.HighlightedText: "#ffffff", R.ToolTipBase: "#2b2d30", R.ToolTipText: "#e8eaed", R.Link: "#93c5fd",
        R.PlaceholderText: "#9aa0a6",
    }, "#6b7280", (R.Text, R.ButtonText))


def high_contrast_palette() -> QPalette:
    """White on black, yellow selection, cyan links: the contrast of the systems' high-contrast schemes."""
    return _palette({
        R.Window: "#000000", R.WindowText: "#ffffff", R.Base: "#000000", R.AlternateBase: "#1a1a1a",
        R.Text: "#ffffff", R.Button: "#000000", R.ButtonText: "#ffffff", R.Highlight: "#ffff00",
        R.HighlightedText: "#000000", R.ToolTipBase: "#000000", R.ToolTipText: "#ffffff", R.Link: "#00ffff",
        R.PlaceholderText: "#c0c0c0", R.Mid: "#ffffff", R.Dark: "#ffffff", R.Light: "#ffffff",
    }, "#9a9a9a", (R.Text, R.ButtonText, R.WindowText))


# Fusion draws the frames of inputs and lists a shade off the window colour: black on black in high contrast
HIGH_CONTRAST_CSS = (
    "QLineEdit, QPlainTextEdit, QTextEdit, QTextBrowser, QAbstractItemView, QComboBox, QSpinBox, QPushButton, "
    "QToolButton:hover, QTabBar::tab, QProgressBar { border: 1px solid #ffffff; }\n"
    "QTabBar::tab { padding: 4px 10px; }\n"
    "QTabBar::tab:selected { background: #ffff00; color: #000000; }\n"
)


def is_dark() -> bool:
    return QGuiApplication.styleHints().colorScheme() == Qt.ColorScheme.Dark


_FOLLOWS = "rabbithole_app_font"  # a widget whose font is the application's, set by apply_theme


class _Theme:
    """What the app was last given, and the system's own font size to scale from."""

    theme = "system"
    base_points: float | None = None
    following = False


def apply_theme(app: QApplication, theme: str = "system", text_size: int = 100) -> None:
    """Fusion everywhere (the same look on Linux, Windows and macOS), in the chosen scheme — "system"
    follows the system's light or dark scheme and its changes — with the text at ``text_size`` percent."""
    app.setStyle("Fusion")
    # the style sheet before the font: set after it, it re-polished the widgets with their old font
    app.setStyleSheet(HIGH_CONTRAST_CSS if theme == "high_contrast" else "")
    _Theme.theme = theme
    if _Theme.base_points is None:
        _Theme.base_points = app.font().pointSizeF()
    font = QFont(app.font())
    font.setPointSizeF(_Theme.base_points * text_size / 100)
    app.setFont(font)
    # With an application style sheet Qt no longer hands a new application font to the widgets that exist:
    # those that follow it (no font of their own, or one set here) get it explicitly
    for widget in app.allWidgets():
        if widget.property(_FOLLOWS) or not widget.testAttribute(Qt.WidgetAttribute.WA_SetFont):
            widget.setFont(font)
            widget.setProperty(_FOLLOWS, True)

    def follow() -> None:
        chosen = _Theme.theme
        if chosen == "high_contrast":
            app.setPalette(high_contrast_palette())
        elif chosen == "dark" or (chosen == "system" and is_dark()):
            app.setPalette(dark_palette())
        else:
            app.setPalette(app.style().standardPalette())

    follow()
    if not _Theme.following:  # connected once: a later choice changes what it follows
        _Theme.following = True
        app.styleHints().colorSchemeChanged.connect(lambda _scheme: follow())
