"""The PDF viewer a citation opens: the cited page, scrolled to the quote, its rectangles highlighted.

The highlights are painted over the pages after QPdfView has drawn them, placed with
``pdf_layout.page_to_view``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path

from PySide6.QtCore import QLocale, QPoint, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QGuiApplication, QKeySequence, QShortcut
from PySide6.QtPdf import QPdfDocument
from PySide6.QtWidgets import (
    QLabel,
    QMenu,
    QLineEdit,
    QSizePolicy,
    QSpinBox,
    QStackedWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from desktop.report.model import Rect
from desktop.ui.cite_text import cited, place
from desktop.ui.icons import icon
from desktop.ui.pdf_layout import PageMode, ZoomMode, rect_of
from desktop.ui.pdf_places import Place, PlaceHistory
from desktop.ui.pdf_search import PdfSearch
from desktop.ui.pdf_view import ZOOM_RANGE, PdfView

ZOOM_STEP = 1.25
Zoom = str | float  # "text", "width", "page" (fits) or a factor
DEFAULT_ZOOM: Zoom = "text"  # the text block fills the pane: body text readable in a narrow dock
MOST_ZOOMS = 200  # documents whose zoom is remembered


class PdfViewer(QWidget):
    """Toolbar, search box and view; ``open`` shows a cited page with its quote highlighted."""

    pageChanged = Signal(int)  # 1-based
    documentOpened = Signal(str)  # the path, whenever a file is loaded (not when an open one is reused)
    detachRequested = Signal()  # the reader wants the viewer on its own, as large as the screen allows

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._path: Path | None = None
        self._stamp: tuple[int, int] | None = None  # (mtime, size): a file replaced on disk is reloaded
        self.history = PlaceHistory()
        self.zooms: dict[str, Zoom] = {}  # per document (resolved path): the zoom the reader chose last
        self.default_zoom: Zoom = DEFAULT_ZOOM  # for a document without a choice
        self.document = QPdfDocument(self)
        self.view = PdfView()
        self.view.setDocument(self.document)
        self.search = PdfSearch(self.view, self.current_page, self)
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
        self.view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.view.customContextMenuRequested.connect(self._context_menu)
        self._document_changed()
        self._sync_history()
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
        return self._show(Place(Path(path), page, tuple(rects), quote, note), record=True)

    def _show(self, place: Place, record: bool) -> bool:
        path, page, rects, quote, note = place.path, place.page, place.rects, place.quote, place.note
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
        if record:
            self.history.visit(Place(self._path, index + 1, tuple(rects), quote, note))
        self._sync_history()
        return True

    def show_place(self, place: Place) -> bool:
        """Show a place another viewer was at (a new window after a language switch), highlight and all."""
        return self._show(place, record=True)

    def back(self) -> None:
        if (place := self.history.go_back()) is not None:
            self._show(place, record=False)

    def forward(self) -> None:
        if (place := self.history.go_forward()) is not None:
            self._show(place, record=False)

    def _sync_history(self) -> None:
        self.back_action.setEnabled(bool(self.history.back))
        self.forward_action.setEnabled(bool(self.history.ahead))

    @property
    def place(self) -> Place | None:
        """The page shown as it was asked for, with its highlight (a new window shows it again)."""
        return self.history.here if self._path else None

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
        self.search.set_document(None)
        error = self.document.load(str(path))
        if error in (QPdfDocument.Error.IncorrectPassword, QPdfDocument.Error.UnsupportedSecurityScheme):
            text = self.tr("“{name}” is password-protected. Remove the password and re-add it to the knowledge base.")
            return self._fail(text.format(name=path.name))
        if error != QPdfDocument.Error.None_ or self.document.pageCount() == 0:
            text = self.tr("“{name}” cannot be opened: the file is damaged or not a PDF ({path}).")
            return self._fail(text.format(name=path.name, path=path))
        self._path, self._stamp = path.resolve(), self._file_stamp(path)
        self.search.set_document(self._path)
        self._document_changed()
        self._apply_zoom(self.zooms.get(str(self._path), self.default_zoom))
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
        """The quote's rectangles from the page's own text (any spacing, any case), for citations without.
        A long passage (a retrieved chunk, its words joined where the page hyphenated them) that is not
        found whole is marked by its opening words."""
        words = (quote or "").split()
        text = self.document.getAllText(page).text() if words else ""
        for n in dict.fromkeys(min(len(words), n) for n in (len(words), 30, 20, 12, 8, 5)) if text else ():
            if found := re.search(r"\s+".join(map(re.escape, words[:n])), text, re.IGNORECASE):
                selection = self.document.getSelectionAtIndex(page, found.start(), found.end() - found.start())
                return [rect_of(polygon.boundingRect()) for polygon in selection.bounds()]
        return []

    # --- toolbar and keys ----------------------------------------------------------------------

    def _build_toolbar(self) -> QToolBar:
        bar = _icon_bar()
        self.back_action = bar.addAction(icon("back"), self.tr("Back"), self.back)
        self.forward_action = bar.addAction(icon("forward"), self.tr("Forward"), self.forward)
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
            bar.addAction(icon("fit_text"), self.tr("Fit text to width"), self.fit_text),
            bar.addAction(icon("fit_width"), self.tr("Fit width"), self.fit_width),
            bar.addAction(icon("fit_page"), self.tr("Fit page"), self.fit_page),
        ]
        bar.addSeparator()
        bar.addAction(icon("detach"), self.tr("Read in a window of its own"), self.detachRequested.emit)
        return bar

    def _build_search_bar(self) -> QToolBar:
        """Search in a row of its own: on the page toolbar it went into the overflow ("»") at the pane's
        default width, German labels pushing it out first."""
        bar = _icon_bar()
        self._document_actions += self.search.build(bar)
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
            (QKeySequence.StandardKey.FindNext, self.search.next_result),
            (QKeySequence.StandardKey.FindPrevious, self.search.previous_result),
            ("PgUp", self.previous_page),
            ("PgDown", self.next_page),
            (QKeySequence.StandardKey.ZoomIn, self.zoom_in),
            ("Ctrl+=", self.zoom_in),  # Ctrl++ needs Shift on many keyboards
            (QKeySequence.StandardKey.ZoomOut, self.zoom_out),
            ("Ctrl+0", self.fit_text),
            (QKeySequence.StandardKey.Copy, self.copy_selection),
            ("Ctrl+Shift+C", self.copy_with_citation),
        ]
        # Set after construction: PySide6 drops a context= keyword given to this constructor, which left
        # every key here window-wide (PgUp in the chat paged the PDF).
        for key, slot in keys:
            QShortcut(QKeySequence(key), self, slot).setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        # Find, Back and Forward work from anywhere in the window: a citation clicked in the report leaves
        # the focus there
        for key, slot in ((QKeySequence.StandardKey.Find, self.search.focus), ("Alt+Left", self.back),
                          ("Alt+Right", self.forward)):
            QShortcut(QKeySequence(key), self, slot).setContext(Qt.ShortcutContext.WindowShortcut)
        self.back_action.setToolTip(self.tr("Back ({key})").format(key=_native("Alt+Left")))
        self.forward_action.setToolTip(self.tr("Forward ({key})").format(key=_native("Alt+Right")))

    def _document_changed(self) -> None:
        self.view.document_loaded()
        count = self.document.pageCount() if self._path else 0
        for widget in [*self._document_actions, self.page_box, self.search.box]:
            widget.setEnabled(count > 0)
        self.page_box.setRange(min(count, 1), count)
        self.page_box.setSuffix(self.tr(" / {count}").format(count=count) if count else "")
        self.page_box.setSpecialValueText("" if count else "–")  # shown at the minimum: only while empty
        self._sync_page_box()

    @property
    def search_box(self) -> QLineEdit:
        return self.search.box

    @property
    def count_label(self) -> QLabel:
        return self.search.count_label

    def next_result(self) -> None:
        self.search.next_result()

    def previous_result(self) -> None:
        self.search.previous_result()

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
        self._choose_zoom(min(max(factor, ZOOM_RANGE[0]), ZOOM_RANGE[1]))

    def fit_text(self) -> None:
        self._choose_zoom("text")

    def fit_width(self) -> None:
        self._choose_zoom("width")

    def fit_page(self) -> None:
        self._choose_zoom("page")

    def _choose_zoom(self, zoom: Zoom) -> None:
        """The reader's choice, kept for this document (the next opening of it starts so)."""
        if self._path:
            self.zooms.pop(str(self._path), None)
            self.zooms[str(self._path)] = zoom
            while len(self.zooms) > MOST_ZOOMS:
                self.zooms.pop(next(iter(self.zooms)))
        self._apply_zoom(zoom)

    def _apply_zoom(self, zoom: Zoom) -> None:
        view = self.view
        view.text_fit = False
        if zoom == "text":
            view.fit_text_width()
        elif zoom in ("width", "page"):
            mode = ZoomMode.FitToWidth if zoom == "width" else ZoomMode.FitInView
            view.change_layout(lambda: view.setZoomMode(mode))
        elif isinstance(zoom, float | int):
            view.change_layout(lambda: (view.setZoomMode(ZoomMode.Custom), view.setZoomFactor(float(zoom))))

    # --- copying ---------------------------------------------------------------------------------

    def copy_selection(self) -> None:
        if text := self.view.selected_text():
            QGuiApplication.clipboard().setText(text)

    def copy_with_citation(self) -> None:
        """The selected text in quotation marks with document and page, in the window's language."""
        if (text := self.view.selected_text()) and self._path and self.view.selection:
            QGuiApplication.clipboard().setText(cited(text, [place(self._path.name, self.view.selection[0] + 1)]))

    def _context_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        has = bool(self.view.selected_text())
        menu.addAction(icon("copy"), self.tr("Copy"), self.copy_selection).setEnabled(has)
        menu.addAction(icon("copy_cite"), self.tr("Copy with citation"), self.copy_with_citation).setEnabled(has)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.view.mapToGlobal(pos))

    def _on_page_changed(self, index: int) -> None:
        self._sync_page_box()
        if self._path:
            self.history.remember_page(index + 1)
            self.pageChanged.emit(index + 1)

    def _sync_page_box(self) -> None:
        page = self.current_page()
        with QSignalBlocker(self.page_box):  # showing the page is no request to go there
            self.page_box.setValue(page)
        self.prev_action.setEnabled(page > 1)
        self.next_action.setEnabled(0 < page < self.document.pageCount())

def _native(key: str) -> str:
    return QKeySequence(key).toString(QKeySequence.SequenceFormat.NativeText)


def _icon_bar() -> QToolBar:
    """A toolbar of icons, each action's text its tooltip: text labels pushed controls into the overflow
    ("»") at the pane's default width, German ones first."""
    bar = QToolBar()
    bar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    return bar
