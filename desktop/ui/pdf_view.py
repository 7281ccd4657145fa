"""The page view of the PDF viewer: QPdfView with the quote's rectangles painted over its pages
(placed with ``pdf_layout.page_to_view``) and an anchor that keeps the quote in sight across resizes
and zoom changes until the user scrolls."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPen,
    QResizeEvent,
)
from PySide6.QtPdf import QPdfDocument, QPdfSelection
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QWidget

from desktop.report.model import Rect
from desktop.ui.pdf_layout import (
    PageMode,
    PagePlacement,
    ViewState,
    page_to_view,
    rect_of,
)

HIGHLIGHT_FILL = QColor(255, 221, 0, 110)  # translucent yellow: the text below stays readable
HIGHLIGHT_EDGE = QColor(204, 150, 0)
SELECTION_FILL = QColor(51, 136, 255, 90)
SEARCH_FILL = QColor(255, 140, 0, 60)  # every hit of a search, faint
SEARCH_CURRENT = QColor(255, 110, 0, 150)  # the hit shown
TEXT_PAD = 12  # pixels kept free on each side of the text block when it fills the view's width
ZOOM_RANGE = (0.1, 8.0)


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
    selectionChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._visible = -1
        self.highlights: dict[int, list[Rect]] = {}  # 0-based page: rectangles in page points
        self._sizes: list[tuple[float, float]] = []
        self._anchor: _Anchor | None = None
        self.text_fit = False  # the zoom makes the page's text block fill the width (and follows resizes)
        self._text_boxes: dict[int, Rect | None] = {}
        self.selection: tuple[int, QPdfSelection] | None = None  # text the reader selected, on one page
        self.search_marks: dict[int, list[Rect]] = {}  # a search's hits by page
        self.search_current: tuple[int, Rect] | None = None
        self._press: tuple[int, QPointF] | None = None
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
        self._text_boxes, self.selection, self._press = {}, None, None
        self._check_visible_page()

    def set_search_marks(self, pages: dict[int, list[Rect]], current: tuple[int, Rect] | None) -> None:
        self.search_marks, self.search_current = pages, current
        self.viewport().update()

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

    # --- the text block and its zoom --------------------------------------------------------------------

    def text_box(self, page: int) -> Rect | None:
        """The bounds of the page's text in points (None: no text layer, as on a scan without OCR)."""
        if page not in self._text_boxes:
            doc = self.document()
            found = doc.getAllText(page) if doc is not None and 0 <= page < len(self._sizes) else None
            box = found.boundingRectangle() if found is not None and found.isValid() else None
            self._text_boxes[page] = rect_of(box) if box is not None and box.width() > 1 else None
        return self._text_boxes[page]

    def text_zoom(self, page: int) -> float | None:
        """The zoom at which ``page``'s text block fills the view's width, less a margin each side."""
        box = self.text_box(page)
        if box is None:
            return None
        m = self.documentMargins()
        room = self.viewport().width() - m.left() - m.right() - 2 * TEXT_PAD
        return min(max(room / ((box.x1 - box.x0) * self._dpi / 72.0), ZOOM_RANGE[0]), ZOOM_RANGE[1])

    def _fit_text(self) -> None:
        page = self._anchor.page if self._anchor else self.visible_page()
        if (zoom := self.text_zoom(page)) is None:
            self.setZoomMode(QPdfView.ZoomMode.FitToWidth)  # no text to measure: the page fills the width
            return
        self.setZoomMode(QPdfView.ZoomMode.Custom)
        self.setZoomFactor(zoom)

    def _centre_x(self, page: int, x: float) -> float:
        """Across, the view centres the text block while it fits the text to the width, else ``x``."""
        box = self.text_box(page) if self.text_fit else None
        return (box.x0 + box.x1) / 2 if box is not None else x

    # --- selecting text -----------------------------------------------------------------------------

    def _page_at(self, pos: QPointF) -> tuple[int, QPointF] | None:
        for page, place in page_to_view(self.state()).items():
            if place.x <= pos.x() <= place.x + place.width and place.y <= pos.y() <= place.y + place.height:
                return page, QPointF(*place.to_page(pos.x(), pos.y()))
        return None

    def selected_text(self) -> str:
        return " ".join(self.selection[1].text().split()) if self.selection else ""

    def clear_selection(self) -> None:
        if self.selection is not None:
            self.selection = None
            self.viewport().update()
            self.selectionChanged.emit()

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = self._page_at(event.position())
            self.clear_selection()
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            page, start = self._press
            place = self.placement(page)
            if place is not None:  # a drag past the page's edge selects to that edge
                end = QPointF(*place.to_page(event.position().x(), event.position().y()))
                found = self.document().getSelection(page, start, end)
                self.selection = (page, found) if found.isValid() and found.text().strip() else None
                self.viewport().update()
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self._press is not None:
            self._press = None
            self.selectionChanged.emit()
        super().mouseReleaseEvent(event)

    # --- painting -----------------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)  # the pages first, the marks over them
        if not self.highlights and not self.selection and not self.search_marks:
            return
        painter = QPainter(self.viewport())
        painter.setPen(Qt.PenStyle.NoPen)
        for page, rects in self.search_marks.items():
            if place := self.placement(page):
                for r in rects:
                    current = self.search_current == (page, r)
                    painter.setBrush(SEARCH_CURRENT if current else SEARCH_FILL)
                    painter.drawRect(place.map_rect(r))
        painter.setPen(QPen(HIGHLIGHT_EDGE, 1))
        painter.setBrush(HIGHLIGHT_FILL)
        for page, rects in self.highlights.items():
            if place := self.placement(page):
                for r in rects:
                    painter.drawRect(place.map_rect(r))
        if self.selection and (place := self.placement(self.selection[0])):
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(SELECTION_FILL)
            for polygon in self.selection[1].bounds():
                painter.drawRect(place.map_rect(rect_of(polygon.boundingRect())))
        painter.end()

    def reveal(self, page: int, rect: Rect | None = None) -> None:
        """Show 0-based ``page``: ``rect`` a quarter down the view (centred across), else the page's top."""
        if rect is None:
            width = self._sizes[page][0] if 0 <= page < len(self._sizes) else 0.0
            self._anchor = _Anchor(page, self._centre_x(page, width / 2), 0.0, 0.5, 0.0, show_page_top=True)
        else:
            x = self._centre_x(page, (rect.x0 + rect.x1) / 2)
            self._anchor = _Anchor(page, x, rect.y0, 0.5, 0.25, show_page_top=True)
        if self.text_fit:
            self._fit_text()  # the page revealed may set its text block wider or narrower
        self._apply_anchor()

    def fit_text_width(self) -> None:
        """Zoom so the text block of the page in view fills the width, and keep it so across resizes."""
        self.text_fit = True
        self._anchor = self._anchor or self._centre_anchor()
        if self._anchor is not None:
            a = self._anchor
            self._anchor = _Anchor(a.page, self._centre_x(a.page, a.x), a.y, 0.5, a.fy, a.show_page_top)
        self._fit_text()
        self._apply_anchor()
        self._check_visible_page()

    def change_layout(self, change: Callable[[], object]) -> None:
        """Zoom or fit, keeping the anchor (else the point in the middle of the view) where it is."""
        self._anchor = self._anchor or self._centre_anchor()
        change()
        self._apply_anchor()
        self._check_visible_page()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        if self.text_fit and self._sizes:
            self._anchor = self._anchor or self._centre_anchor()
            self._fit_text()
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
