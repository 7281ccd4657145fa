"""The window's icons, by what they mean: Material Design Icons drawn by qtawesome, so every desktop
shows the same set (theme icons are missing on many Linux desktops and on Windows) in the palette's
colours, crisp at any scale."""

from __future__ import annotations

import os
from functools import cache

os.environ.setdefault("QT_API", "pyside6")  # qtawesome reaches Qt through qtpy: the binding we ship

import qtawesome
from PySide6.QtGui import QIcon

NAMES: dict[str, str] = {
    "add_file": "mdi6.file-plus-outline",
    "add_folder": "mdi6.folder-plus-outline",
    "database_add": "mdi6.database-plus-outline",
    "database_remove": "mdi6.database-minus-outline",
    "cancel": "mdi6.close-circle-outline",
    "report": "mdi6.clipboard-text-outline",
    "question": "mdi6.comment-question-outline",
    "send": "mdi6.send",
    "end": "mdi6.flag-checkered",
    "approve": "mdi6.check-bold",
    "replan": "mdi6.refresh",
    "add": "mdi6.plus",
    "edit": "mdi6.pencil-outline",
    "remove": "mdi6.minus",
    "up": "mdi6.arrow-up",
    "down": "mdi6.arrow-down",
    "stop": "mdi6.stop-circle-outline",
    "resume": "mdi6.play-circle-outline",
    "skip": "mdi6.debug-step-over",
    "history": "mdi6.history",
    "export": "mdi6.export",
    "copy": "mdi6.content-copy",
    "settings": "mdi6.cog-outline",
    "connection": "mdi6.lan-check",
    "quit": "mdi6.exit-to-app",
    "guide": "mdi6.book-open-variant",
    "about": "mdi6.information-outline",
    "page_previous": "mdi6.chevron-up",
    "page_next": "mdi6.chevron-down",
    "zoom_in": "mdi6.magnify-plus-outline",
    "zoom_out": "mdi6.magnify-minus-outline",
    "fit_width": "mdi6.arrow-expand-horizontal",
    "fit_page": "mdi6.fit-to-page-outline",
    "fit_text": "mdi6.format-align-justify",
    "back": "mdi6.arrow-left",
    "forward": "mdi6.arrow-right",
    "detach": "mdi6.open-in-new",
    "copy_cite": "mdi6.format-quote-close",
    "result_previous": "mdi6.arrow-up-bold-outline",
    "result_next": "mdi6.arrow-down-bold-outline",
}


SIZES = (16, 20, 24, 32)  # menus, buttons and toolbars at 100 % to 200 % scale


@cache
def icon(meaning: str) -> QIcon:
    """The icon for ``meaning`` (a key of NAMES); a QApplication must exist.

    Drawn into pixmaps once: qtawesome's own icon draws its glyph at every paint, which made the first
    start's longest GUI stall 45 ms instead of 28 (RESULTS §7)."""
    glyph = qtawesome.icon(NAMES[meaning])
    drawn = QIcon()
    for size in SIZES:
        drawn.addPixmap(glyph.pixmap(size, size))
    return drawn
