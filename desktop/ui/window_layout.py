"""The first layout of a main window: a size the screen holds, and docks that leave the PDF room to read
a page. A remembered or handed-over layout (window_memory, window_carry) replaces both."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

TITLE_BAR = 40  # pixels a window manager's frame adds above a window, about
SEPARATORS = 16  # the two dock separators and the central widget's margins


def fit_to_screen(window: QMainWindow, width: int, height: int) -> None:
    """As asked, or what the screen has room for (1280×720 left a 1400×880 window's buttons off-screen)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    room = screen.availableGeometry() if screen else None
    if room is not None:  # the frame's title bar needs room too
        width, height = min(width, room.width()), min(height, room.height() - TITLE_BAR)
    window.resize(width, height)


def size_docks(window: QMainWindow, left: QDockWidget, right: QDockWidget, left_panel: QWidget) -> None:
    """The PDF (``right``) at 40 % of the width, as far as the work area's own minimum leaves room (at 1280
    px it got 320 px and its toolbar overflowed); ``left`` as narrow as its panel allows, or 18 %."""
    width = window.width()
    kb = max(left_panel.minimumSizeHint().width(), round(0.18 * width))
    pdf = min(round(0.4 * width), width - kb - window.centralWidget().minimumSizeHint().width() - SEPARATORS)
    window.resizeDocks([left, right], [kb, pdf], Qt.Orientation.Horizontal)
