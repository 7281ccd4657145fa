"""The page view of the PDF viewer: QPdfView with the quote's rectangles painted over its pages
(placed with ``pdf_layout.page_to_view``) and an anchor that keeps the quote in sight across resizes
and zoom changes until the user scrolls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtPdf import QPdfDocument
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QWidget

from desktop.report.model import Rect
from desktop.ui.pdf_layout import (
    PageMode,
    PagePlacement,
    ViewState,
    page_to_view,
)

HIGHLIGHT_FILL = QColor(255, 221, 0, 110)  # translucent yellow: the text below stays readable
HIGHLIGHT_EDGE = QColor(204, 150, 0)


@dataclass(frozen=True)
class _Anchor:
    """A page point (in points) kept at a place in the viewport (fractions of its size) across resizes
    and zoom changes, until the user scrolls."""

    page: int
    x: float
    y: float
    fx: float
    fy: float
    show_page_top: bool = False  # a quote near the top of its page: show the page's top edge as well


class PdfView(QPdfView):
    """QPdfView with highlight rectangles painted over its pages, and an anchor that stays in sight."""

    visiblePageChanged = Signal(int)  # 0-based

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._visible = -1
        self.highlights: dict[int, list[Rect]] = {}  # 0-based page: rectangles in page points
        self._sizes: list[tuple[float, float]] = []
        self._anchor: _Anchor | None = None
        screen = QGuiApplication.primaryScreen()  # QPdfView's DPI: the primary screen's, read once
        self._dpi = screen.logicalDotsPerInch() if screen else 96.0
        for bar in (self.horizontalScrollBar(), self.verticalScrollBar()):
            bar.actionTriggered.connect(self._user_scrolled)  # wheel, keys, dragging; not setValue
            bar.valueChanged.connect(self._check_visible_page)
        self.pageNavigator().currentPageChanged.connect(self._check_visible_page)

    def document_loaded(self) -> None:
        """Cache the page sizes (every paint needs all of them in MultiPage mode); forget old marks."""
        doc = self.document()
        self._sizes = [(s.width(), s.height()) for s in map(doc.pagePointSize, range(doc.pageCount()))]
        self.highlights, self._anchor, self._visible = {}, None, -1
        self._check_visible_page()

    def set_highlights(self, page: int, rects: Sequence[Rect]) -> None:
        self.highlights = {page: list(rects)} if rects else {}
        self.viewport().update()

    def state(self) -> ViewState:
        m, vp = self.documentMargins(), self.viewport()
        scroll = (self.horizontalScrollBar().value(), self.verticalScrollBar().value())
        return ViewState(self._sizes, self.pageNavigator().currentPage(), self.pageMode(), self.zoomMode(),
                         self.zoomFactor(), self._dpi, (m.left(), m.top(), m.right(), m.bottom()), self.pageSpacing(),
                         (vp.width(), vp.height()), scroll)

    def placement(self, page: int) -> PagePlacement | None:
        ready = self.document() is not None and self.document().status() == QPdfDocument.Status.Ready
        return page_to_view(self.state()).get(page) if ready else None

    def visible_page(self) -> int:
        """0-based: the page revealed, while in view and the user has not scrolled (a quote low on page 12
        is on page 12 even when page 13 fills most of the view); else the page 40 % down the view, as
        QPdfView reckons, except that it says page 1 when that line falls into a gap between pages."""
        if self.pageMode() == PageMode.SinglePage or not self._sizes:
            return self.pageNavigator().currentPage()
        placed, height = page_to_view(self.state()), self.viewport().height()
        if self._anchor and (a := placed.get(self._anchor.page)) and a.y < height and a.y + a.height > 0:
            return self._anchor.page
        return max((p for p, place in placed.items() if place.y <= height * 0.4), default=0)

    def effective_zoom(self) -> float:
        """The zoom shown: in the fit modes QPdfView leaves ``zoomFactor`` at its last custom value."""
        place = self.placement(self.visible_page())
        return place.sx * 72.0 / self._dpi if place and place.sx else self.zoomFactor()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)  # the pages first, the marks over them
        if not self.highlights:
            return
        painter = QPainter(self.viewport())
        painter.setPen(QPen(HIGHLIGHT_EDGE, 1))
        painter.setBrush(HIGHLIGHT_FILL)
        for page, rects in self.highlights.items():
            if place := self.placement(page):
                for r in rects:
                    painter.drawRect(place.map_rect(r))
        painter.end()

    def reveal(self, page: int, rect: Rect | None = None) -> None:
        """Show 0-based ``page``: ``rect`` a quarter down the view (centred across), else the page's top."""
        if rect is None:
            width = self._sizes[page][0] if 0 <= page < len(self._sizes) else 0.0
            self._anchor = _Anchor(page, width / 2, 0.0, 0.5, 0.0, show_page_top=True)
        else:
            self._anchor = _Anchor(page, (rect.x0 + rect.x1) / 2, rect.y0, 0.5, 0.25, show_page_top=True)
        self._apply_anchor()

    def change_layout(self, change: Callable[[], object]) -> None:
        """Zoom or fit, keeping the anchor (else the point in the middle of the view) where it is."""
        self._anchor = self._anchor or self._centre_anchor()
        change()
        self._apply_anchor()
        self._check_visible_page()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._apply_anchor()  # also the first real layout when ``open`` ran before the view was shown
        self._check_visible_page()

    def _user_scrolled(self) -> None:
        self._anchor = None  # the user took over: zoom keeps the middle of the view from now on

    def _check_visible_page(self) -> None:
        if (page := self.visible_page()) != self._visible:
            self._visible = page
            self.visiblePageChanged.emit(page)

    def _apply_anchor(self) -> None:
        a = self._anchor
        if a is None or not 0 <= a.page < len(self._sizes):
            return
        if self.pageNavigator().currentPage() != a.page:  # SinglePage lays out only the current page
            self.pageNavigator().jump(a.page, QPointF(a.x, a.y), self.zoomFactor())
        if not (place := self.placement(a.page)):
            return
        dx = place.x + a.x * place.sx - a.fx * self.viewport().width()
        dy = place.y + a.y * place.sy - a.fy * self.viewport().height()
        if a.show_page_top:
            dy = max(dy, place.y - self.documentMargins().top())
        self.horizontalScrollBar().setValue(self.horizontalScrollBar().value() + round(dx))
        self.verticalScrollBar().setValue(self.verticalScrollBar().value() + round(dy))

    def _centre_anchor(self) -> _Anchor | None:
        current = self.visible_page()
        cx, cy = self.viewport().width() / 2, self.viewport().height() / 2
        for page in (current, current + 1, current - 1):  # MultiPage: the middle may lie on a neighbour
            if (place := self.placement(page)) and place.y <= cy < place.y + place.height + self.pageSpacing():
                return _Anchor(page, *place.to_page(cx, cy), 0.5, 0.5)
        place = self.placement(current)  # SinglePage: the middle may lie below a short page
        return _Anchor(current, *place.to_page(cx, place.y), 0.5, 0.0, show_page_top=True) if place else None
