"""A small round gauge painted with QPainter: an arc filled to value/maximum, the value as text in the
middle and a caption below. Used by the report view for the quality total and the cited-sentence share."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPaintEvent, QPalette, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

# The arc opens at the bottom: it starts at 225° (lower left) and sweeps 270° clockwise.
_START_DEG = 225
_SPAN_DEG = 270
_TRACK_LIGHT, _TRACK_DARK = QColor("#d9d9d9"), QColor("#4a4d52")
# Traffic-light colours by fraction; the text says the number, the colour only helps at a glance.
_LEVELS: tuple[tuple[float, QColor], ...] = (
    (0.75, QColor("#2e7d32")),
    (0.5, QColor("#c77700")),
    (0.0, QColor("#c62828")),
)


_TEXT_SHARE = 0.8  # of the arc's width, what the value's text may take
_SMALLEST_PT = 6.0


def value_font(base: QFont, text: str, width: float) -> QFont:
    """The bold font the value is written in: half as large again as ``base``, smaller where ``text`` would be
    wider than ``width`` (seen at 1280×720, the gauge squeezed by the header above it: "100 %" drawn in a
    narrower arc showed as "0")."""
    font = QFont(base)
    font.setBold(True)
    size = max(base.pointSizeF() * 1.5, 9.0)
    while True:
        font.setPointSizeF(size)
        if size <= _SMALLEST_PT or QFontMetricsF(font).horizontalAdvance(text) <= width:
            return font
        size = max(size - 0.5, _SMALLEST_PT)


def level_color(fraction: float) -> QColor:
    for threshold, color in _LEVELS:
        if fraction >= threshold:
            return color
    return _LEVELS[-1][1]


class Gauge(QWidget):
    """Shows ``value`` out of ``maximum``; ``text`` is what the centre says (e.g. '325 / 400', '88 %')."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._value = 0.0
        self._maximum = 1.0
        self._text = ""
        self._caption = ""
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)

    def set_value(self, value: float, maximum: float, text: str, caption: str) -> None:
        self._maximum = maximum if maximum > 0 else 1.0
        self._value = min(max(value, 0.0), self._maximum)
        self._text = text
        self._caption = caption
        # Screen readers and tooltips get the same words the painting shows.
        self.setAccessibleName(f"{caption}: {text}")
        self.setToolTip(f"{caption}: {text}")
        self.update()

    def value(self) -> float:
        return self._value

    def maximum(self) -> float:
        return self._maximum

    def fraction(self) -> float:
        return self._value / self._maximum

    def text(self) -> str:
        return self._text

    def caption(self) -> str:
        return self._caption

    def sizeHint(self) -> QSize:
        return QSize(170, 160)

    def minimumSizeHint(self) -> QSize:
        return QSize(120, 120)

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: ARG002 - Qt's signature
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        caption_height = self.fontMetrics().height() + 4
        side = min(self.width(), self.height() - caption_height) - 12
        if side <= 0:
            painter.end()
            return
        arc = QRectF((self.width() - side) / 2, 6, side, side)
        thickness = max(side / 10, 4.0)
        self._paint_arc(painter, arc, thickness)
        self._paint_text(painter, arc, caption_height)
        painter.end()

    def _paint_arc(self, painter: QPainter, arc: QRectF, thickness: float) -> None:
        dark = self.palette().color(QPalette.ColorRole.Window).lightness() < 128
        pen = QPen(_TRACK_DARK if dark else _TRACK_LIGHT, thickness, Qt.PenStyle.SolidLine, Qt.PenCapStyle.RoundCap)
        painter.setPen(pen)
        # Qt angles are in 1/16 degree, counter-clockwise positive: a negative span runs clockwise.
        painter.drawArc(arc, _START_DEG * 16, -_SPAN_DEG * 16)
        if self._value > 0:
            pen.setColor(level_color(self.fraction()))
            painter.setPen(pen)
            painter.drawArc(arc, _START_DEG * 16, -round(_SPAN_DEG * 16 * self.fraction()))

    def _paint_text(self, painter: QPainter, arc: QRectF, caption_height: int) -> None:
        painter.setPen(self.palette().color(self.foregroundRole()))
        painter.setFont(value_font(self.font(), self._text, arc.width() * _TEXT_SHARE))
        painter.drawText(arc, Qt.AlignmentFlag.AlignCenter, self._text)
        painter.setFont(self.font())
        below = QRectF(0, self.height() - caption_height, self.width(), caption_height)
        caption = self.fontMetrics().elidedText(self._caption, Qt.TextElideMode.ElideRight, self.width())
        painter.drawText(below, Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextSingleLine, caption)
