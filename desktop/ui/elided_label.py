"""A plain-text label that shows at most a few lines of its text, ended with "…" where it is cut, the whole
text in its tooltip. The report view's title is the research question, and a question of several sentences
in the title's bold font took most of the report's height at 1280×720 (seen with laws-research-14: nine lines,
the last one cut in half, the answer below it four lines tall)."""

from __future__ import annotations

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFontMetrics, QResizeEvent
from PySide6.QtWidgets import QLabel, QWidget

ELLIPSIS = "…"


def fitted(text: str, metrics: QFontMetrics, width: int, lines: int) -> str:
    """``text`` as it fits ``lines`` lines of ``width`` pixels, word-wrapped: whole, or its longest start that
    fits with ``ELLIPSIS`` after the last whole word."""
    room = lines * metrics.lineSpacing()

    def fits(candidate: str) -> bool:
        flags = int(Qt.TextFlag.TextWordWrap)
        return metrics.boundingRect(QRect(0, 0, max(width, 1), 0), flags, candidate).height() <= room
    if width <= 0 or fits(text):
        return text
    low, high = 0, len(text)  # the longest start that fits, by halving: a question has hundreds of characters
    while low < high:
        middle = (low + high + 1) // 2
        if fits(text[:middle].rstrip() + ELLIPSIS):
            low = middle
        else:
            high = middle - 1
    start = text[:low]
    if " " in start.strip():
        start = start[:start.rstrip().rfind(" ")]  # end at a whole word
    return start.rstrip(" ,;:") + ELLIPSIS


class ElidedLabel(QLabel):
    """Word-wrapped plain text cut to ``lines`` lines; ``full_text()`` is what was set."""

    def __init__(self, lines: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._full = ""
        self._lines = lines
        self.setTextFormat(Qt.TextFormat.PlainText)  # titles and questions come from the LLM or the user
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

    def set_full_text(self, text: str) -> None:
        self._full = text
        self._fit()

    def full_text(self) -> str:
        return self._full

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        shown = fitted(self._full, self.fontMetrics(), self.contentsRect().width(), self._lines)
        if shown != self.text():
            self.setText(shown)
        self.setToolTip(self._full if shown != self._full else "")
