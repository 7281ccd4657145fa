"""The PDF viewer a citation opens: the cited page, scrolled to the quote, its rectangles highlighted.

The highlights are painted over the pages after QPdfView has drawn them, placed with
``pdf_layout.page_to_view``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import pymupdf
from PySide6.QtCore import QModelIndex, QPointF, QSignalBlocker, Qt, Signal
from PySide6.QtGui import (QColor, QGuiApplication, QIcon, QKeySequence, QPainter, QPaintEvent, QPen, QResizeEvent,
                           QShortcut)
from PySide6.QtPdf import QPdfDocument, QPdfSearchModel
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QLabel, QLineEdit, QSpinBox, QStackedWidget, QToolBar, QVBoxLayout, QWidget

from desktop.report.model import Rect
from desktop.ui.pdf_layout import PageMode, PagePlacement, ViewState, ZoomMode, page_to_view, rect_of

HIGHLIGHT_FILL = QColor(255, 221, 0, 110)  # translucent yellow: the text below stays readable
HIGHLIGHT_EDGE = QColor(204, 150, 0)
ZOOM_STEP = 1.25
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


class PdfViewer(QWidget):
    """Toolbar, search box and view; ``open`` shows a cited page with its quote highlighted."""

    pageChanged = Signal(int)  # 1-based
    documentOpened = Signal(str)  # the path, whenever a file is loaded (not when an open one is reused)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._path: Path | None = None
        self._stamp: tuple[int, int] | None = None  # (mtime, size): a file replaced on disk is reloaded
        self._result = -1  # the search result shown; -1: none yet
        self.document = QPdfDocument(self)
        self.search_model = QPdfSearchModel(self)
        self.search_model.setDocument(self.document)
        self.view = PdfView()
        self.view.setDocument(self.document)
        self.view.setSearchModel(self.search_model)
        self.view.setPageMode(PageMode.MultiPage)
        self.view.setZoomMode(ZoomMode.FitToWidth)
        self.message = QLabel(wordWrap=True, alignment=Qt.AlignmentFlag.AlignCenter)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # file names may contain '<'
        self.message.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the path can be copied
        self.notice = QLabel(wordWrap=True)  # a page that does not exist, a quote not found: said, not hidden
        self.notice.hide()
        self.stack = QStackedWidget()
        self.stack.addWidget(self.view)
        self.stack.addWidget(self.message)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        for widget in (self._build_toolbar(), self.notice, self.stack):
            layout.addWidget(widget)
        self._add_shortcuts()
        self.view.visiblePageChanged.connect(self._on_page_changed)
        self.search_model.countChanged.connect(self._update_count)
        self.search_model.statusChanged.connect(self._update_count)
        self._document_changed()

    def open(self, path: Path, page: int = 1, rects: Sequence[Rect] = (), quote: str | None = None) -> bool:
        """Show 1-based ``page`` of ``path`` scrolled to ``rects`` (PyMuPDF page points) and highlight them;
        without rects, highlight ``quote`` where the page's text has it. False, with the reason shown in
        the widget, when the file is missing or cannot be opened."""
        path = Path(path)
        if not path.is_file():
            text = self.tr("“{name}” was not found at {path} — was it moved? Re-add it to the knowledge base.")
            return self._fail(text.format(name=path.name, path=path))
        if not self._is_open(path) and not self._load(path):
            return False
        count = self.document.pageCount()
        index = min(max(page, 1), count) - 1
        notices = [] if index == page - 1 else [
            self.tr("Page {page} does not exist; the document has %n page(s).", "", count).format(page=page)]
        shown = self._as_displayed(path, index, rects) if rects else self._find_quote(index, quote)
        if quote and not shown:
            notices.append(self.tr("The quote could not be found on page {page}.").format(page=index + 1))
        self.notice.setText(" ".join(notices))
        self.notice.setVisible(bool(notices))
        self.stack.setCurrentWidget(self.view)
        self.view.set_highlights(index, shown)
        self.view.reveal(index, shown[0] if shown else None)
        self._sync_page_box()
        return True

    @property
    def path(self) -> Path | None:
        """The file shown; None while none is."""
        return self._path

    def current_page(self) -> int:
        """1-based; 0 while no document is shown."""
        return self.view.visible_page() + 1 if self._path else 0

    def _is_open(self, path: Path) -> bool:
        return self._path == path.resolve() and self._stamp == self._file_stamp(path)

    @staticmethod
    def _file_stamp(path: Path) -> tuple[int, int]:
        stat = path.stat()
        return stat.st_mtime_ns, stat.st_size

    def _load(self, path: Path) -> bool:
        self._path = self._stamp = None  # no page signals for the old file while the new one loads
        self._clear_search()
        error = self.document.load(str(path))
        if error in (QPdfDocument.Error.IncorrectPassword, QPdfDocument.Error.UnsupportedSecurityScheme):
            text = self.tr("“{name}” is password-protected. Remove the password and re-add it to the knowledge base.")
            return self._fail(text.format(name=path.name))
        if error != QPdfDocument.Error.None_ or self.document.pageCount() == 0:
            text = self.tr("“{name}” cannot be opened: the file is damaged or not a PDF ({path}).")
            return self._fail(text.format(name=path.name, path=path))
        self._path, self._stamp = path.resolve(), self._file_stamp(path)
        self._document_changed()
        self.documentOpened.emit(str(path))
        return True

    def _fail(self, text: str) -> bool:
        self.document.close()  # a stale document must not be taken for the one asked for
        self._path = self._stamp = None
        self._document_changed()
        self.message.setText(text)
        self.notice.hide()
        self.stack.setCurrentWidget(self.message)
        return False

    @staticmethod
    def _as_displayed(path: Path, page: int, rects: Sequence[Rect]) -> list[Rect]:
        """PyMuPDF measures text on the unrotated page; QPdfView shows the page turned by its /Rotate."""
        try:
            with pymupdf.open(path) as doc:
                matrix = doc[page].rotation_matrix
        except Exception:  # noqa: BLE001 - pdfium opened what MuPDF cannot: show the rects as they are
            return list(rects)
        turned = [pymupdf.Rect(r.x0, r.y0, r.x1, r.y1) * matrix for r in rects]
        return [Rect(x0=t.x0, y0=t.y0, x1=t.x1, y1=t.y1) for t in turned]

    def _find_quote(self, page: int, quote: str | None) -> list[Rect]:
        """The quote's rectangles from the page's own text (any spacing, any case), for citations without."""
        words = (quote or "").split()
        text = self.document.getAllText(page).text() if words else ""
        found = re.search(r"\s+".join(map(re.escape, words)), text, re.IGNORECASE) if text else None
        if not found:
            return []
        selection = self.document.getSelectionAtIndex(page, found.start(), found.end() - found.start())
        return [rect_of(polygon.boundingRect()) for polygon in selection.bounds()]

    # --- toolbar and keys ----------------------------------------------------------------------

    def _build_toolbar(self) -> QToolBar:
        bar = QToolBar()
        icon = QIcon.fromTheme  # theme icons where the desktop has them; the text shows otherwise
        self.prev_action = bar.addAction(icon(QIcon.ThemeIcon.GoPrevious), self.tr("Previous page"),
                                         self.previous_page)
        self.page_box = QSpinBox(keyboardTracking=False)  # go on Enter, not on every digit typed
        self.page_box.setToolTip(self.tr("Page"))
        self.page_box.valueChanged.connect(self.go_to_page)
        bar.addWidget(self.page_box)
        self.next_action = bar.addAction(icon(QIcon.ThemeIcon.GoNext), self.tr("Next page"), self.next_page)
        bar.addSeparator()
        self._document_actions = [
            bar.addAction(icon(QIcon.ThemeIcon.ZoomOut), self.tr("Zoom out"), self.zoom_out),
            bar.addAction(icon(QIcon.ThemeIcon.ZoomIn), self.tr("Zoom in"), self.zoom_in),
            bar.addAction(self.tr("Fit width"), self.fit_width),
            bar.addAction(icon(QIcon.ThemeIcon.ZoomFitBest), self.tr("Fit page"), self.fit_page),
        ]
        bar.addSeparator()
        find = QKeySequence(QKeySequence.StandardKey.Find).toString(QKeySequence.SequenceFormat.NativeText)
        self.search_box = QLineEdit(placeholderText=self.tr("Search ({key})").format(key=find), clearButtonEnabled=True)
        self.search_box.textChanged.connect(self._search)
        self.search_box.returnPressed.connect(self.next_result)
        bar.addWidget(self.search_box)
        self._document_actions += [
            bar.addAction(icon(QIcon.ThemeIcon.GoUp), self.tr("Previous result"), self.previous_result),
            bar.addAction(icon(QIcon.ThemeIcon.GoDown), self.tr("Next result"), self.next_result),
        ]
        self.count_label = QLabel()
        bar.addWidget(self.count_label)
        return bar

    def _add_shortcuts(self) -> None:
        keys: list[tuple[QKeySequence.StandardKey | str, Callable[[], object]]] = [
            (QKeySequence.StandardKey.Find, self._focus_search),
            (QKeySequence.StandardKey.FindNext, self.next_result),
            (QKeySequence.StandardKey.FindPrevious, self.previous_result),
            ("PgUp", self.previous_page),
            ("PgDown", self.next_page),
            (QKeySequence.StandardKey.ZoomIn, self.zoom_in),
            ("Ctrl+=", self.zoom_in),  # Ctrl++ needs Shift on many keyboards
            (QKeySequence.StandardKey.ZoomOut, self.zoom_out),
            ("Ctrl+0", self.fit_width),
        ]
        for key, slot in keys:
            QShortcut(QKeySequence(key), self, slot, context=Qt.ShortcutContext.WidgetWithChildrenShortcut)

    def _document_changed(self) -> None:
        self.view.document_loaded()
        count = self.document.pageCount() if self._path else 0
        for widget in [*self._document_actions, self.page_box, self.search_box]:
            widget.setEnabled(count > 0)
        self.page_box.setRange(min(count, 1), count)
        self.page_box.setSuffix(self.tr(" / {count}").format(count=count) if count else "")
        self.page_box.setSpecialValueText("" if count else "–")  # shown at the minimum: only while empty
        self._sync_page_box()

    def _focus_search(self) -> None:
        self.search_box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.search_box.selectAll()

    # --- pages and zoom ------------------------------------------------------------------------

    def go_to_page(self, page: int) -> None:
        """1-based; pages that do not exist are ignored."""
        if self._path and 1 <= page <= self.document.pageCount() and page != self.current_page():
            self.view.reveal(page - 1)

    def previous_page(self) -> None:
        self.go_to_page(self.current_page() - 1)

    def next_page(self) -> None:
        self.go_to_page(self.current_page() + 1)

    def zoom_in(self) -> None:
        self.set_zoom(self.view.effective_zoom() * ZOOM_STEP)

    def zoom_out(self) -> None:
        self.set_zoom(self.view.effective_zoom() / ZOOM_STEP)

    def set_zoom(self, factor: float) -> None:
        """1.0 is the printed size: QPdfView converts points to pixels with the screen's logical DPI."""
        factor = min(max(factor, ZOOM_RANGE[0]), ZOOM_RANGE[1])
        self.view.change_layout(lambda: (self.view.setZoomMode(ZoomMode.Custom), self.view.setZoomFactor(factor)))

    def fit_width(self) -> None:
        self.view.change_layout(lambda: self.view.setZoomMode(ZoomMode.FitToWidth))

    def fit_page(self) -> None:
        self.view.change_layout(lambda: self.view.setZoomMode(ZoomMode.FitInView))

    def _on_page_changed(self, index: int) -> None:
        self._sync_page_box()
        if self._path:
            self.pageChanged.emit(index + 1)

    def _sync_page_box(self) -> None:
        page = self.current_page()
        with QSignalBlocker(self.page_box):  # showing the page is no request to go there
            self.page_box.setValue(page)
        self.prev_action.setEnabled(page > 1)
        self.next_action.setEnabled(0 < page < self.document.pageCount())

    # --- search --------------------------------------------------------------------------------

    def next_result(self) -> None:
        self._step_result(+1)

    def previous_result(self) -> None:
        self._step_result(-1)

    def _search(self, text: str) -> None:
        self._result = -1
        self.view.setCurrentSearchResultIndex(-1)
        self.search_model.setSearchString(text)
        self._update_count()

    def _clear_search(self) -> None:
        with QSignalBlocker(self.search_box):
            self.search_box.clear()
        self._search("")

    def _step_result(self, step: int) -> None:
        count = self.search_model.rowCount(QModelIndex())
        if not count:
            return
        if self._result < 0:  # the first step starts from the page in view, not from page 1
            here = self.current_page() - 1
            pages = [self.search_model.resultAtIndex(i).page() for i in range(count)]
            ahead = [i for i, p in enumerate(pages) if (p >= here if step > 0 else p <= here)]
            self._result = (ahead[0] if step > 0 else ahead[-1]) if ahead else (0 if step > 0 else count - 1)
        else:
            self._result = (self._result + step) % count
        link = self.search_model.resultAtIndex(self._result)
        self.view.setCurrentSearchResultIndex(self._result)
        boxes = link.rectangles()
        self.view.reveal(link.page(), rect_of(boxes[0]) if boxes else None)
        self._update_count()

    def _update_count(self) -> None:
        count = self.search_model.rowCount(QModelIndex())
        if not self.search_model.searchString():
            text = ""
        elif count == 0:
            searching = self.search_model.status() == QPdfSearchModel.Status.Searching
            text = self.tr("Searching…") if searching else self.tr("No matches")
        elif self._result >= 0:
            text = self.tr("{n} / {count}").format(n=self._result + 1, count=count)
        else:
            text = self.tr("%n match(es)", "", count)  # the German translation supplies both plural forms
        self.count_label.setText(text)
