"""The viewer's search: a box, previous/next and a count. Each search reads the PDF in a thread of its own
with PyMuPDF (a 132-page statute in well under a second; QPdfSearchModel took a tenth of a second per
page, 13 s for it), page by page: hits count up as they come ("3 matches …"), a new search stops the
last one, and a step asked for before the first hit (Enter pressed while it still searches) is taken
once there is one, never dropped."""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from pathlib import Path

import pymupdf
from PySide6.QtCore import QObject, QSignalBlocker, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QLabel, QLineEdit, QToolBar

from desktop.report.model import Rect
from desktop.ui.icons import icon
from desktop.ui.pdf_view import PdfView

log = logging.getLogger(__name__)


class PdfSearch(QObject):
    _found = Signal(int, int, list)  # search, 0-based page, list[Rect]: from the search's thread
    _ended = Signal(int)  # search

    def __init__(self, view: PdfView, current_page: Callable[[], int], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.view = view
        self.current_page = current_page  # 1-based, 0 without a document
        self.path: Path | None = None
        self.hits: list[tuple[int, Rect]] = []  # in page order, as found
        self.result = -1  # the hit shown; -1: none yet
        self.pending_step = 0  # a step asked for before the search found anything: taken when it does
        self.looking = False  # the search for the text typed has not finished
        self._search_id = 0  # the current search; a thread whose search is not it stops
        find = QKeySequence(QKeySequence.StandardKey.Find).toString(QKeySequence.SequenceFormat.NativeText)
        self.box = QLineEdit(placeholderText=self.tr("Search ({key})").format(key=find), clearButtonEnabled=True)
        self.box.textChanged.connect(self._search)
        self.box.returnPressed.connect(self.next_result)
        self.count_label = QLabel()
        self._found.connect(self._add_hits)  # queued: emitted from the search's thread
        self._ended.connect(self._end)
        self.destroyed.connect(self._stop)

    def build(self, bar: QToolBar) -> list[QAction]:
        """The box, the two steps and the count on ``bar``; returns the actions that need a document."""
        bar.addWidget(self.box)
        actions = [bar.addAction(icon("result_previous"), self.tr("Previous result"), self.previous_result),
                   bar.addAction(icon("result_next"), self.tr("Next result"), self.next_result)]
        bar.addWidget(self.count_label)
        return actions

    def set_document(self, path: Path | None) -> None:
        self.path = path
        self.clear()

    def focus(self) -> None:
        self.box.setFocus(Qt.FocusReason.ShortcutFocusReason)
        self.box.selectAll()

    def clear(self) -> None:
        with QSignalBlocker(self.box):
            self.box.clear()
        self._search("")

    def next_result(self) -> None:
        self._step(+1)

    def previous_result(self) -> None:
        self._step(-1)

    # --- the search and its thread ------------------------------------------------------------------

    def _stop(self) -> None:
        self._search_id += 1

    def _search(self, text: str) -> None:
        self._stop()
        self.hits, self.result, self.pending_step = [], -1, 0
        self.view.set_search_marks({}, None)
        text = " ".join(text.split())
        self.looking = bool(text) and self.path is not None
        if self.looking:
            threading.Thread(target=self._scan, args=(self.path, text, self._search_id), daemon=True,
                             name="rabbithole-pdf-search").start()
        self._update_count()

    def _scan(self, path: Path, text: str, search: int) -> None:
        """In the search's thread: each page's hits as it finds them, until another search begins."""
        try:
            with pymupdf.open(path) as doc:
                for number, page in enumerate(doc):
                    if search != self._search_id:
                        return
                    if found := page.search_for(text):
                        self._found.emit(search, number, [Rect(x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1) for r in found])
        except Exception:  # a damaged page ends the search with what it found; the log says why
            log.exception("searching %s", path)
        finally:
            try:
                self._ended.emit(search)
            except RuntimeError:  # the viewer is gone
                pass

    def _add_hits(self, search: int, page: int, rects: list[Rect]) -> None:
        if search != self._search_id:
            return
        self.hits += [(page, r) for r in rects]
        self._show_marks()
        if self.pending_step:
            self._step(self.pending_step)  # shows the count itself
        else:
            self._update_count()

    def _end(self, search: int) -> None:
        if search == self._search_id:
            self.looking = False
            self._update_count()

    # --- stepping through the hits ------------------------------------------------------------------

    def _step(self, step: int) -> None:
        count = len(self.hits)
        if not count:
            if self.looking:
                self.pending_step = step
            return
        self.pending_step = 0
        if self.result < 0:  # the first step starts from the page in view, not from page 1
            here = self.current_page() - 1
            ahead = [i for i, (p, _) in enumerate(self.hits) if (p >= here if step > 0 else p <= here)]
            self.result = (ahead[0] if step > 0 else ahead[-1]) if ahead else (0 if step > 0 else count - 1)
        else:
            self.result = (self.result + step) % count
        page, rect = self.hits[self.result]
        self._show_marks()
        self.view.reveal(page, rect)
        self._update_count()

    def _show_marks(self) -> None:
        pages: dict[int, list[Rect]] = {}
        for page, rect in self.hits:
            pages.setdefault(page, []).append(rect)
        self.view.set_search_marks(pages, self.hits[self.result] if self.result >= 0 else None)

    def _update_count(self) -> None:
        count = len(self.hits)
        if not self.box.text().strip():
            text = ""
        elif count == 0:
            text = self.tr("Searching…") if self.looking else self.tr("No matches")
        elif self.result >= 0:
            text = self.tr("{n} / {count}").format(n=self.result + 1, count=count)
        else:
            text = self.tr("%n match(es)", "", count)  # the German translation supplies both plural forms
        self.count_label.setText(text + (" …" if self.looking and count else ""))
