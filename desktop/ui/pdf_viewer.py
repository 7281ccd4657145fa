"""The PDF viewer a citation opens: the cited page, scrolled to the quote, its rectangles highlighted.

The highlights are painted over the pages after QPdfView has drawn them, placed with
``pdf_layout.page_to_view``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QLocale, QModelIndex, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtPdf import QPdfDocument, QPdfSearchModel
from PySide6.QtWidgets import (
    QLabel,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from desktop.report.model import Rect
from desktop.ui.pdf_layout import PageMode, ZoomMode, rect_of
from desktop.ui.icons import icon
from desktop.ui.pdf_view import PdfView

ZOOM_STEP = 1.25
ZOOM_RANGE = (0.1, 8.0)


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
        for widget in (self._build_toolbar(), self._build_search_bar(), self.notice, self.stack):
            layout.addWidget(widget)
        for changed in (self.view.zoomFactorChanged, self.view.zoomModeChanged,
                        self.view.verticalScrollBar().rangeChanged):  # a new zoom, or the width in a fit mode
            changed.connect(self._update_zoom_label)
        self._add_shortcuts()
        self.view.visiblePageChanged.connect(self._on_page_changed)
        self.search_model.countChanged.connect(self._update_count)
        self.search_model.statusChanged.connect(self._update_count)
        self._document_changed()
        self.show_hint()

    def show_hint(self) -> None:
        """The empty pane says how a page gets here."""
        self.message.setText(self.tr("No document open.\n\nClick a citation [n] in the report, or double-click a "
                                     "document in the knowledge base or a retrieved passage, to read it here."))
        self.stack.setCurrentWidget(self.message)

    def open(self, path: Path, page: int = 1, rects: Sequence[Rect] = (), quote: str | None = None,
             note: str | None = None) -> bool:
        """Show 1-based ``page`` of ``path`` scrolled to ``rects`` (PDF points on the page as shown) and
        highlight them; without rects, highlight ``quote`` where the page's text has it. ``note`` is said
        above the page (why nothing is highlighted). False, with the reason shown in the widget, when the
        file is missing or cannot be opened."""
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
        shown = list(rects) if rects else self._find_quote(index, quote)
        if quote and not shown:
            notices.append(self.tr("The quote could not be found on page {page}.").format(page=index + 1))
        if note:
            notices.append(note)
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
        bar = _icon_bar()
        self.prev_action = bar.addAction(icon("page_previous"), self.tr("Previous page"), self.previous_page)
        self.page_box = QSpinBox(keyboardTracking=False)  # go on Enter, not on every digit typed
        self.page_box.setToolTip(self.tr("Page"))
        self.page_box.valueChanged.connect(self.go_to_page)
        bar.addWidget(self.page_box)
        self.next_action = bar.addAction(icon("page_next"), self.tr("Next page"), self.next_page)
        bar.addSeparator()
        self._document_actions = [
            bar.addAction(icon("zoom_out"), self.tr("Zoom out"), self.zoom_out),
            bar.addAction(icon("zoom_in"), self.tr("Zoom in"), self.zoom_in),
            bar.addAction(icon("fit_width"), self.tr("Fit width"), self.fit_width),
            bar.addAction(icon("fit_page"), self.tr("Fit page"), self.fit_page),
        ]
        return bar

    def _build_search_bar(self) -> QToolBar:
        """Search in a row of its own: on the page toolbar it went into the overflow ("»") at the pane's
        default width, German labels pushing it out first."""
        bar = _icon_bar()
        find = QKeySequence(QKeySequence.StandardKey.Find).toString(QKeySequence.SequenceFormat.NativeText)
        self.search_box = QLineEdit(placeholderText=self.tr("Search ({key})").format(key=find), clearButtonEnabled=True)
        self.search_box.textChanged.connect(self._search)
        self.search_box.returnPressed.connect(self.next_result)
        bar.addWidget(self.search_box)
        self._document_actions += [
            bar.addAction(icon("result_previous"), self.tr("Previous result"), self.previous_result),
            bar.addAction(icon("result_next"), self.tr("Next result"), self.next_result),
        ]
        self.count_label = QLabel()
        bar.addWidget(self.count_label)
        spacer = QWidget()
        spacer.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        bar.addWidget(spacer)
        self.zoom_label = QLabel()  # the zoom as a percentage, also in the fit modes; in this row it stays seen
        bar.addWidget(self.zoom_label)
        return bar

    def _update_zoom_label(self) -> None:
        shown = round(100 * self.view.effective_zoom()) if self._path else None
        self.zoom_label.setText(self.tr("{0}%", "a zoom").format(QLocale().toString(shown)) if shown else "")

    def _add_shortcuts(self) -> None:
        keys: list[tuple[QKeySequence.StandardKey | str, Callable[[], object]]] = [
            (QKeySequence.StandardKey.FindNext, self.next_result),
            (QKeySequence.StandardKey.FindPrevious, self.previous_result),
            ("PgUp", self.previous_page),
            ("PgDown", self.next_page),
            (QKeySequence.StandardKey.ZoomIn, self.zoom_in),
            ("Ctrl+=", self.zoom_in),  # Ctrl++ needs Shift on many keyboards
            (QKeySequence.StandardKey.ZoomOut, self.zoom_out),
            ("Ctrl+0", self.fit_width),
        ]
        # Set after construction: PySide6 drops a context= keyword given to this constructor, which left
        # every key here window-wide (PgUp in the chat paged the PDF).
        for key, slot in keys:
            QShortcut(QKeySequence(key), self, slot).setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # Find works from anywhere in the window
        QShortcut(QKeySequence(QKeySequence.StandardKey.Find), self, self._focus_search).setContext(
            Qt.ShortcutContext.WindowShortcut)

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


def _icon_bar() -> QToolBar:
    """A toolbar of icons, each action's text its tooltip: text labels pushed controls into the overflow
    ("»") at the pane's default width, German ones first."""
    bar = QToolBar()
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    return bar
