"""The viewer made for reading: a page opens with its text block filling the pane, each document keeps
the zoom its reader chose, Back and Forward go between citation jumps, text can be selected and copied
with its citation, a retrieved passage is marked on its page, and Enter pressed while a search still
runs is not lost."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pymupdf
import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtPdfWidgets import QPdfView
from PySide6.QtWidgets import QApplication

from desktop.report.model import Rect
from desktop.ui.pdf_view import TEXT_PAD
from desktop.ui.pdf_viewer import PdfViewer

ZoomMode = QPdfView.ZoomMode
BODY = "Der Grenzwert der effektiven Dosis beträgt 20 Millisievert im Kalenderjahr."


def make_pdf(path: Path, pages: int = 6, word_on_last: str | None = None) -> Path:
    """A4 pages whose text block (x 100 to about 420) is narrower than the page, as in a statute."""
    doc = pymupdf.open()
    for n in range(1, pages + 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((100, 100), f"§ {n} Überschrift", fontsize=12)
        page.insert_text((100, 400), BODY if n != pages or not word_on_last else f"{BODY} {word_on_last}", fontsize=10)
    doc.save(path)
    doc.close()
    return path


def rects_of(path: Path, page: int, text: str) -> list[Rect]:
    with pymupdf.open(path) as doc:
        return [Rect(x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1) for r in doc[page - 1].search_for(text)]


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "StrlSchG.pdf")


def test_a_page_opens_with_its_text_block_filling_the_pane(viewer: PdfViewer, pdf: Path) -> None:
    assert viewer.open(pdf, 3)
    view = viewer.view
    box, place = view.text_box(2), view.placement(2)
    assert box is not None and place is not None
    shown = place.map_rect(box)
    width = view.viewport().width()
    assert shown.left() >= 0 and shown.right() <= width  # every line whole in view
    assert shown.left() == pytest.approx(TEXT_PAD + view.documentMargins().left(), abs=8)
    assert width - shown.right() == pytest.approx(TEXT_PAD + view.documentMargins().right(), abs=8)
    viewer.fit_width()
    assert view.effective_zoom() < viewer.view.text_zoom(2)  # the page's margins no longer shrink the text


def test_each_document_keeps_the_zoom_its_reader_chose(viewer: PdfViewer, tmp_path: Path) -> None:
    first, second = make_pdf(tmp_path / "A.pdf"), make_pdf(tmp_path / "B.pdf")
    assert viewer.open(first, 1)
    viewer.zoom_in()
    chosen = viewer.view.effective_zoom()
    assert viewer.open(second, 1)
    assert viewer.view.text_fit and viewer.view.effective_zoom() != pytest.approx(chosen, rel=0.01)
    viewer.fit_page()
    assert viewer.open(first, 2)
    assert not viewer.view.text_fit and viewer.view.effective_zoom() == pytest.approx(chosen, rel=0.01)
    assert viewer.open(second, 2)
    assert viewer.view.zoomMode() == ZoomMode.FitInView


def test_back_and_forward_go_between_citation_jumps(qtbot: Any, viewer: PdfViewer, pdf: Path) -> None:
    assert not viewer.back_action.isEnabled()
    two, five = rects_of(pdf, 2, "20 Millisievert"), rects_of(pdf, 5, "20 Millisievert")
    assert viewer.open(pdf, 2, two)
    assert viewer.open(pdf, 5, five)
    assert viewer.back_action.isEnabled() and not viewer.forward_action.isEnabled()
    qtbot.keyClick(viewer.view, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert viewer.current_page() == 2 and viewer.view.highlights == {1: two}
    assert viewer.forward_action.isEnabled()
    qtbot.keyClick(viewer.view, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert viewer.current_page() == 5 and viewer.view.highlights == {4: five}
    viewer.back()
    assert viewer.open(pdf, 1)  # a new jump drops what lay ahead
    assert not viewer.forward_action.isEnabled()


def test_selected_text_copies_with_its_citation(qtbot: Any, viewer: PdfViewer, pdf: Path) -> None:
    (rect,) = rects_of(pdf, 3, "20 Millisievert")
    assert viewer.open(pdf, 3, [rect])
    shown = viewer.view.placement(2).map_rect(rect)
    start = QPoint(round(shown.left()) + 1, round(shown.center().y()))
    end = QPoint(round(shown.right()) - 1, round(shown.center().y()))
    port = viewer.view.viewport()
    qtbot.mousePress(port, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(port, end)
    qtbot.mouseRelease(port, Qt.MouseButton.LeftButton, pos=end)
    assert viewer.view.selected_text() == "20 Millisievert"
    viewer.view.setFocus()
    qtbot.keyClick(viewer.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == "20 Millisievert"
    viewer.copy_with_citation()
    assert QApplication.clipboard().text() == "“20 Millisievert” (StrlSchG, p. 3)"


def test_a_retrieved_passage_is_marked_on_its_page(viewer: PdfViewer, pdf: Path) -> None:
    # a chunk's text: the page's words, then words the chunker joined where the page broke them
    passage = BODY.replace("Kalenderjahr.", "Kalender-jahr.") + " § 4 Überschrift"
    assert viewer.open(pdf, 3, quote=passage)
    assert viewer.view.highlights.get(2) and viewer.notice.isHidden()


def test_enter_pressed_while_the_search_runs_goes_to_the_first_hit(qtbot: Any, viewer: PdfViewer,
                                                                    tmp_path: Path) -> None:
    pdf = make_pdf(tmp_path / "lang.pdf", pages=300, word_on_last="Quantenschaum")
    assert viewer.open(pdf, 1)
    viewer.search_box.setText("Quantenschaum")
    assert viewer.search.looking  # the model searches on a timer: nothing found yet
    qtbot.keyClick(viewer.search_box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: viewer.current_page() == 300, timeout=30_000)
    qtbot.waitUntil(lambda: viewer.count_label.text() == "1 / 1", timeout=30_000)  # "…" while it looks on


def test_zoomed_in_every_line_stays_reachable(viewer: PdfViewer, pdf: Path) -> None:
    assert viewer.open(pdf, 2)
    for _ in range(3):
        viewer.zoom_in()
    view, bar = viewer.view, viewer.view.horizontalScrollBar()
    place = view.placement(1)
    assert place.width > view.viewport().width()  # wider than the pane: the scroll bar reaches both edges
    bar.setValue(bar.minimum())
    assert view.placement(1).x >= 0  # the left margin
    bar.setValue(bar.maximum())
    edge = view.placement(1)
    assert edge.x + edge.width <= view.viewport().width() + view.documentMargins().right()  # the right one
