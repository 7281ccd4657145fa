"""Where QPdfView puts its pages: QPdfView keeps its page layout private, so ``page_to_view``
re-derives it (margins, page spacing, zoom or fit mode, logical DPI, horizontal centring, Qt's integer
rounding) from the view's public state. Pure arithmetic, tested against what the widget paints."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from PySide6.QtCore import QRectF
from PySide6.QtPdfWidgets import QPdfView

from desktop.report.model import Rect

PageMode = QPdfView.PageMode
ZoomMode = QPdfView.ZoomMode



@dataclass(frozen=True)
class ViewState:
    """Everything QPdfView's page layout depends on, read off the widget (see ``PdfView.state``)."""

    page_sizes: Sequence[tuple[float, float]]  # (width, height) in points, per 0-based page
    current: int  # the navigator's page: the only one laid out in SinglePage mode
    page_mode: PageMode
    zoom_mode: ZoomMode
    zoom: float
    dpi: float  # logical DPI of the screen QPdfView measured at construction
    margins: tuple[int, int, int, int]  # left, top, right, bottom
    spacing: int
    viewport: tuple[int, int]  # width, height
    scroll: tuple[int, int]  # horizontal, vertical scroll bar values


class PagePlacement(NamedTuple):
    """Where one page lies in the viewport, in pixels, and its pixels per point on each axis."""

    x: int
    y: int
    width: int
    height: int
    sx: float
    sy: float

    def map_rect(self, r: Rect) -> QRectF:
        """A rectangle in page points (top-left origin) in viewport pixels."""
        x, y = self.x + r.x0 * self.sx, self.y + r.y0 * self.sy
        return QRectF(x, y, (r.x1 - r.x0) * self.sx, (r.y1 - r.y0) * self.sy)

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """A viewport pixel in page points."""
        return (x - self.x) / self.sx, (y - self.y) / self.sy


def rect_of(r: QRectF) -> Rect:
    return Rect(x0=r.left(), y0=r.top(), x1=r.right(), y1=r.bottom())


def _qround(value: float) -> int:
    return math.floor(value + 0.5)  # qRound for positive values: halves round up, not to even


def _pixel_size(points: tuple[float, float], s: ViewState) -> tuple[int, int]:
    """A page's pixel size, with QPdfView's own rounding steps (QSizeF::toSize, QSize::scaled)."""
    res = s.dpi / 72.0
    if s.zoom_mode == ZoomMode.Custom:
        return _qround(points[0] * res * s.zoom), _qround(points[1] * res * s.zoom)
    w, h = _qround(points[0] * res), _qround(points[1] * res)
    if w <= 0 or h <= 0:
        return 0, 0
    left, _, right, _ = s.margins
    if s.zoom_mode == ZoomMode.FitToWidth:
        factor = (s.viewport[0] - left - right) / w
        return _qround(w * factor), _qround(h * factor)
    avail_w, avail_h = s.viewport[0] - left - right, s.viewport[1] - s.spacing  # FitInView
    scaled_w = avail_h * w // h
    return (scaled_w, avail_h) if scaled_w <= avail_w else (avail_w, avail_w * h // w)


def page_to_view(s: ViewState) -> dict[int, PagePlacement]:
    """Where QPdfView puts each page it lays out (only the current one in SinglePage mode) in the viewport:
    stacked from the top margin with ``spacing`` between, each centred in the document or the viewport."""
    pages = [s.current] if s.page_mode == PageMode.SinglePage else range(len(s.page_sizes))
    pixels: dict[tuple[float, float], tuple[int, int]] = {}  # most documents have one or two page sizes
    for page in pages:
        if 0 <= page < len(s.page_sizes) and s.page_sizes[page] not in pixels:
            pixels[s.page_sizes[page]] = _pixel_size(s.page_sizes[page], s)
    if not pixels:
        return {}
    left, top, right, _ = s.margins
    span = max(max(w for w, _ in pixels.values()) + left + right, s.viewport[0])
    placed, y = {}, top - s.scroll[1]
    for page in pages:
        (pw, ph), (w, h) = s.page_sizes[page], pixels[s.page_sizes[page]]
        placed[page] = PagePlacement((span - w) // 2 - s.scroll[0], y, w, h, w / (pw or 1), h / (ph or 1))
        y += h + s.spacing
    return placed
