"""PdfViewer on real PDFs made with PyMuPDF. The proof that a highlight lands on its quote is taken from
the rendered pixels: the quote's ink, drawn by pdfium where QPdfView put the page, lies inside the
yellow box, and nothing around it is yellow — after opening, zooming, fitting and scrolling, in both
page modes. ``page_to_view`` is also checked against the page area QPdfView itself paints white."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pymupdf
import pytest
from PySide6.QtCore import QMargins, QPointF, Qt
from PySide6.QtGui import QImage
from PySide6.QtPdfWidgets import QPdfView
from support.pdfs import encrypted, zero_pages

from desktop.engine.quote_locate import locate
from desktop.report.model import Rect
from desktop.ui.pdf_layout import PagePlacement, ViewState, page_to_view
from desktop.ui.pdf_viewer import PdfViewer

PageMode = QPdfView.PageMode
ZoomMode = QPdfView.ZoomMode
PAGES = 6
QUOTE_PAGE = 3  # 1-based, as citations count


def quote_text(page: int) -> str:
    return f"Grenzwert {page * 10} Millisievert"


def make_pdf(path: Path, rotate_page: int | None = None) -> Path:
    """A4 pages with a heading at the top, one quote in the middle, alone, and a footnote; page 5 alone
    has "Kalenderjahr". ``rotate_page`` (1-based) is turned by /Rotate 90, as scanned tables often are."""
    doc = pymupdf.open()
    for n in range(1, PAGES + 1):
        page = doc.new_page(width=595, height=842)
        page.insert_text((72, 72), f"Seite {n} Überschrift", fontsize=14)
        page.insert_text((290, 470), quote_text(n), fontsize=12)
        page.insert_text((72, 780), "Im Kalenderjahr gilt Absatz 2." if n == 5 else f"Fußnote {n}", fontsize=9)
        if n == rotate_page:
            page.set_rotation(90)
    doc.save(path)
    doc.close()
    return path


def quote_rects(path: Path, page: int) -> list[Rect]:
    """Where PyMuPDF finds the quote: the rectangles a citation carries."""
    with pymupdf.open(path) as doc:
        found = doc[page - 1].search_for(quote_text(page))
    assert found
    return [Rect(x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1) for r in found]


@pytest.fixture
def pdf(tmp_path: Path) -> Path:
    return make_pdf(tmp_path / "StrlSchV.pdf")


# --- pixels ------------------------------------------------------------------------------------------


def grab(viewer: PdfViewer) -> tuple[np.ndarray, float]:
    """The viewport as drawn, RGB in device pixels, and the device pixel ratio."""
    image = viewer.view.viewport().grab().toImage().convertToFormat(QImage.Format.Format_RGB32)
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(image.height(), image.bytesPerLine() // 4, 4)
    return rows[:, : image.width(), 2::-1].astype(int), image.devicePixelRatio()  # BGRA in memory


def yellowish(px: np.ndarray) -> np.ndarray:
    """Tinted by the translucent yellow: blue well below red, on paper, on black text and on its grey edges."""
    r, g, b = px[..., 0], px[..., 1], px[..., 2]
    return (r - b > 60) & (g - b > 40)


def ink(px: np.ndarray) -> np.ndarray:
    """Text, on white paper or under the yellow (which keeps red - blue at 110), not the outline (204)."""
    r, b = px[..., 0], px[..., 2]
    return (r < 235) & (r - b < 150)


def box_in_device(viewer: PdfViewer, page: int, rect: Rect, dpr: float, grow: float = 0) -> tuple[int, int, int, int]:
    """The mapped highlight, grown by ``grow`` logical pixels, clipped to the viewport: (x0, y0, x1, y1)."""
    place = viewer.view.placement(page - 1)
    assert place is not None
    box = place.map_rect(rect).adjusted(-grow, -grow, grow, grow)
    w, h = viewer.view.viewport().width(), viewer.view.viewport().height()
    clip = (max(box.left(), 0), max(box.top(), 0), min(box.right(), w), min(box.bottom(), h))
    return tuple(round(v * dpr) for v in clip)  # type: ignore[return-value]


def ink_inside(viewer: PdfViewer, page: int, rect: Rect) -> int:
    px, dpr = grab(viewer)
    x0, y0, x1, y1 = box_in_device(viewer, page, rect, dpr)
    return int(ink(px[y0:y1, x0:x1]).sum()) if x1 > x0 and y1 > y0 else 0


def assert_highlight_on_quote(qtbot, viewer: PdfViewer, page: int, rect: Rect) -> None:  # noqa: ANN001
    """The quote's ink (once pdfium has rendered it) lies inside the yellow box; the ring around is not yellow."""
    qtbot.waitUntil(lambda: ink_inside(viewer, page, rect) > 20, timeout=5000)
    px, dpr = grab(viewer)
    x0, y0, x1, y1 = box_in_device(viewer, page, rect, dpr)
    assert (x1 - x0) * (y1 - y0) > 200, "the quote is in view"
    assert yellowish(px[y0:y1, x0:x1]).all(), "all of the box is yellow"
    gx0, gy0, gx1, gy1 = box_in_device(viewer, page, rect, dpr, grow=30)
    window = np.zeros(px.shape[:2], bool)
    window[gy0:gy1, gx0:gx1] = True
    bx0, by0, bx1, by1 = box_in_device(viewer, page, rect, dpr, grow=2)
    near = window.copy()
    near[by0:by1, bx0:bx1] = False
    assert not (ink(px) & near).any(), "all of the quote's ink is inside the box"
    rx0, ry0, rx1, ry1 = box_in_device(viewer, page, rect, dpr, grow=5)
    ring = window.copy()
    ring[ry0:ry1, rx0:rx1] = False
    assert not (yellowish(px) & ring).any(), "nothing well outside the box is yellow"


def white_area(px: np.ndarray) -> tuple[int, int, int, int] | None:
    rows, cols = np.nonzero((px == 255).all(axis=-1))
    return (int(cols.min()), int(rows.min()), int(cols.max()) + 1, int(rows.max()) + 1) if len(rows) else None


def assert_page_to_view_matches_the_white(viewer: PdfViewer, what: object = "") -> None:
    """Exact to the pixel; with a fractional device pixel ratio an edge may round either way."""
    px, dpr = grab(viewer)
    seen, predicted = white_area(px), predicted_white_area(viewer, dpr)
    assert seen is not None and predicted is not None, what
    assert np.abs(np.subtract(seen, predicted)).max() <= (0 if dpr.is_integer() else 1), (what, seen, predicted)


def predicted_white_area(viewer: PdfViewer, dpr: float) -> tuple[int, int, int, int] | None:
    """The visible part of the pages ``page_to_view`` places: QPdfView fills each page white before drawing it."""
    w, h = viewer.view.viewport().width(), viewer.view.viewport().height()
    boxes = []
    for index in range(viewer.document.pageCount()):
        if (p := viewer.view.placement(index)) and p.x < w and p.y < h and p.x + p.width > 0 and p.y + p.height > 0:
            boxes.append((max(p.x, 0), max(p.y, 0), min(p.x + p.width, w), min(p.y + p.height, h)))
    if not boxes:
        return None
    union = (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))
    return tuple(round(v * dpr) for v in union)  # type: ignore[return-value]


# --- the highlight lands on the quote ----------------------------------------------------------------


@pytest.mark.parametrize("mode", [PageMode.SinglePage, PageMode.MultiPage], ids=["single", "multi"])
def test_highlight_covers_the_quote_through_zoom_fit_and_scroll(qtbot, viewer: PdfViewer, pdf: Path,  # noqa: ANN001
                                                                 mode: PageMode) -> None:
    viewer.view.setPageMode(mode)
    rects = quote_rects(pdf, QUOTE_PAGE)
    with qtbot.waitSignal(viewer.pageChanged, timeout=2000, check_params_cb=lambda page: page == QUOTE_PAGE):
        assert viewer.open(pdf, QUOTE_PAGE, rects, quote_text(QUOTE_PAGE))
    assert viewer.current_page() == QUOTE_PAGE and viewer.page_box.text() == f"{QUOTE_PAGE} / {PAGES}"
    assert_highlight_on_quote(qtbot, viewer, QUOTE_PAGE, rects[0])

    # zoom and fit keep the quote in sight until the user scrolls; then the highlight moves with the page
    steps = [viewer.zoom_in, viewer.zoom_in, viewer.fit_width, viewer.fit_page, viewer.zoom_out,
             lambda: viewer.set_zoom(3.0), lambda: scroll(viewer, 41, 37), lambda: scroll(viewer, -160, -50),
             viewer.fit_width, lambda: scroll(viewer, 0, 90)]
    for step in steps:
        step()
        assert_highlight_on_quote(qtbot, viewer, QUOTE_PAGE, rects[0])
        assert_page_to_view_matches_the_white(viewer)
    assert viewer.current_page() == QUOTE_PAGE


def scroll(viewer: PdfViewer, dx: int, dy: int) -> None:
    """As the user would: dragging the scroll bars (which QPdfView also moves itself, with setValue)."""
    for bar, delta in ((viewer.view.horizontalScrollBar(), dx), (viewer.view.verticalScrollBar(), dy)):
        bar.setSliderPosition(bar.value() + delta)


def test_after_the_user_scrolled_zoom_keeps_the_middle_of_the_view(viewer: PdfViewer, pdf: Path) -> None:
    viewer.default_zoom = "width"  # the middle of a page filling the width stays where a page fit puts it
    assert viewer.open(pdf, 4)
    scroll(viewer, 0, 200)
    view = viewer.view
    middle = (view.viewport().width() / 2, view.viewport().height() / 2)
    before = view.placement(3).to_page(*middle)
    for change in (viewer.zoom_in, viewer.zoom_in, viewer.fit_page, viewer.fit_width):
        change()
        after = view.placement(3).to_page(*middle)
        assert after == pytest.approx(before, abs=2), change  # in points: within a pixel or so
    assert viewer.current_page() == 4


def test_a_quote_low_on_its_page_counts_as_that_page(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    """With the quote a quarter down the view, page 6 fills most of it; the cited page is still 5."""
    viewer.resize(900, 1100)
    viewer.default_zoom = "width"
    with pymupdf.open(pdf) as doc:
        (low,) = doc[4].search_for("Kalenderjahr")
    with qtbot.waitSignal(viewer.pageChanged, timeout=1000, check_params_cb=lambda page: page == 5):
        assert viewer.open(pdf, 5, [Rect(x0=low.x0, y0=low.y0, x1=low.x1, y1=low.y1)])
    assert viewer.view.placement(5).y < viewer.view.viewport().height() * 0.4  # page 6 holds QPdfView's line
    assert viewer.current_page() == 5 and viewer.page_box.text() == f"5 / {PAGES}"
    scroll(viewer, 0, 1)  # the user scrolls: the page in view counts again
    assert viewer.current_page() == 6


def test_the_page_above_a_gap_counts_where_qpdfview_says_page_1(viewer: PdfViewer, pdf: Path) -> None:
    assert viewer.open(pdf, 3)
    view = viewer.view
    view.setPageSpacing(12)
    gap = view.placement(2).y + view.placement(2).height + 5  # 5 px into the gap below page 3
    scroll(viewer, 0, gap - int(view.viewport().height() * 0.4))
    assert view.pageNavigator().currentPage() == 0  # QPdfView's own idea
    assert viewer.current_page() == 3 and viewer.page_box.value() == 3


def test_open_before_the_viewer_is_shown_still_lands_on_the_quote(qtbot, pdf: Path) -> None:  # noqa: ANN001
    widget = PdfViewer()
    qtbot.addWidget(widget)
    rects = quote_rects(pdf, 4)
    assert widget.open(pdf, 4, rects)
    widget.resize(700, 500)
    widget.show()
    qtbot.waitExposed(widget)
    assert_highlight_on_quote(qtbot, widget, 4, rects[0])


def test_rotated_page_highlight_follows_the_rotation(qtbot, viewer: PdfViewer, tmp_path: Path) -> None:  # noqa: ANN001
    """A citation's rects are located as the page is shown (turned by its /Rotate): drawn as they are."""
    pdf = make_pdf(tmp_path / "rotated.pdf", rotate_page=2)
    rects = locate(pdf, 2, quote_text(2))
    assert viewer.open(pdf, 2, rects)
    assert viewer.view.highlights[1] == rects
    shown = viewer.view.highlights[1][0]
    assert (shown.x1 - shown.x0) < (shown.y1 - shown.y0), "a line of text turned on its side"
    assert_highlight_on_quote(qtbot, viewer, 2, shown)


def test_a_quote_without_rects_is_found_in_the_page_text(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    truth = quote_rects(pdf, 5)[0]
    assert viewer.open(pdf, 5, quote="grenzwert   50\nMILLISIEVERT")
    (found,) = viewer.view.highlights[4]
    assert abs(found.x0 - truth.x0) < 3 and abs(found.x1 - truth.x1) < 3 and truth.y0 <= found.y0 < found.y1 <= truth.y1
    assert viewer.notice.isHidden()
    assert_highlight_on_quote(qtbot, viewer, 5, found)

    assert viewer.open(pdf, 2, quote="Dieser Satz steht nirgends")
    assert viewer.view.highlights == {} and viewer.current_page() == 2
    assert "could not be found on page 2" in viewer.notice.text() and viewer.notice.isVisible()


# --- page_to_view ------------------------------------------------------------------------------------


def state(**changes: object) -> ViewState:
    base = {"page_sizes": [(595.0, 842.0)] * 3, "current": 0, "page_mode": PageMode.MultiPage,
            "zoom_mode": ZoomMode.Custom, "zoom": 1.0, "dpi": 72.0, "margins": (6, 6, 6, 6), "spacing": 3,
            "viewport": (800, 600), "scroll": (0, 0)}
    return ViewState(**{**base, **changes})  # type: ignore[arg-type]


def test_page_to_view_stacks_pages_centred_with_margins_and_spacing() -> None:
    # one point is one pixel at 72 DPI and zoom 1; the page is centred in the wider viewport
    assert page_to_view(state())[0] == PagePlacement(102, 6, 595, 842, 1.0, 1.0)
    placed = page_to_view(state(scroll=(0, 1000)))
    assert sorted(placed) == [0, 1, 2]
    assert placed[2] == PagePlacement(102, 6 + 2 * (842 + 3) - 1000, 595, 842, 1.0, 1.0)


def test_page_to_view_converts_points_with_zoom_and_dpi_and_scrolls_sideways() -> None:
    place = page_to_view(state(zoom=1.5, dpi=96.0, scroll=(40, 500)))[1]
    # 595 pt * 96/72 * 1.5 = 1190 px: wider than the viewport, so the document (page + margins) is centred
    assert place == PagePlacement(6 - 40, 6 + 1684 + 3 - 500, 1190, 1684, 2.0, 2.0)
    assert place.map_rect(Rect(x0=100, y0=200, x1=150, y1=210)).getRect() == (-34 + 200, 1193 + 400, 100, 20)
    assert place.to_page(166, 1593) == (100.0, 200.0)


def test_page_to_view_single_page_lays_out_only_the_current_page() -> None:
    placed = page_to_view(state(page_mode=PageMode.SinglePage, current=2, scroll=(0, 4)))
    assert placed == {2: PagePlacement(102, 2, 595, 842, 1.0, 1.0)}


def test_page_to_view_rounds_like_qt() -> None:
    # QSizeF::toSize rounds halves up (Python's round() would give 100 and 200)
    place = page_to_view(state(page_sizes=[(100.5, 200.5)], viewport=(50, 50)))[0]
    assert (place.x, place.width, place.height) == (6, 101, 201)


def test_page_to_view_fit_width_and_fit_page() -> None:
    wide = page_to_view(state(zoom_mode=ZoomMode.FitToWidth, zoom=3.0, viewport=(612, 300)))[0]
    assert (wide.x, wide.width, wide.height) == (6, 600, round(842 * 600 / 595))
    whole = page_to_view(state(zoom_mode=ZoomMode.FitInView, viewport=(800, 603)))[0]
    assert (whole.width, whole.height) == (600 * 595 // 842, 600)  # the viewport's height less the page spacing
    assert whole.x == (800 - whole.width) // 2 and whole.y == 6
    assert page_to_view(state(page_sizes=[])) == {}


def test_page_to_view_matches_what_qpdfview_paints(qtbot, tmp_path: Path) -> None:  # noqa: ANN001
    """Blank pages of mixed sizes: the white that QPdfView paints is exactly where page_to_view says."""
    doc = pymupdf.open()
    for width, height in [(595, 842), (612, 792), (500.5, 700.3), (842, 595)]:
        doc.new_page(width=width, height=height)
    doc.save(tmp_path / "sizes.pdf")
    widget = PdfViewer()
    qtbot.addWidget(widget)
    widget.show()
    assert widget.open(tmp_path / "sizes.pdf", 3)
    view = widget.view
    configs = itertools.product(PageMode, ZoomMode, [(523, 411), (1180, 870)], [0.77, 1.6])
    for n, (mode, zoom_mode, size, zoom) in enumerate(configs):
        widget.resize(*size)
        view.setPageMode(mode)
        view.setZoomMode(zoom_mode)
        view.setZoomFactor(zoom)
        view.setDocumentMargins(QMargins(n % 7, 11, 3 * (n % 5), 2))
        view.setPageSpacing(n % 9)
        view.pageNavigator().jump(n % 4, QPointF())
        scroll(widget, 17 * n, 53 * n)
        qtbot.wait(1)
        assert_page_to_view_matches_the_white(widget, (mode, zoom_mode, size, zoom))


# --- opening, failing, reusing -----------------------------------------------------------------------


def test_missing_file_says_so_in_the_widget(viewer: PdfViewer, pdf: Path, tmp_path: Path) -> None:
    assert viewer.open(pdf, 2)
    moved = tmp_path / "gone" / "StrlSchV.pdf"
    assert viewer.open(moved, 3, quote_rects(pdf, 3)) is False
    text = viewer.message.text()
    assert str(moved) in text and "not found" in text and "moved" in text and "Re-add it" in text
    assert viewer.stack.currentWidget() is viewer.message and viewer.message.isVisible()
    assert viewer.current_page() == 0 and not viewer.search_box.isEnabled()
    assert viewer.open(pdf, 2) and viewer.stack.currentWidget() is viewer.view  # and back


def test_password_protected_and_damaged_files_say_so(viewer: PdfViewer, pdf: Path, tmp_path: Path) -> None:
    locked = encrypted(tmp_path / "locked.pdf", pdf, user_password="geheim")
    assert viewer.open(locked, 1) is False
    assert "password-protected" in viewer.message.text() and viewer.message.isVisible()
    (tmp_path / "broken.pdf").write_bytes(b"%PDF-1.7\nthis is not a PDF at all\n" * 20)
    for bad in (tmp_path / "broken.pdf", zero_pages(tmp_path / "empty.pdf")):
        assert viewer.open(bad, 1) is False
        assert "cannot be opened" in viewer.message.text() and bad.name in viewer.message.text()


def test_reopening_the_same_file_does_not_reload_it(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    with qtbot.waitSignal(viewer.documentOpened, timeout=1000) as opened:
        assert viewer.open(pdf, 1)
    assert opened.args == [str(pdf)]
    with qtbot.assertNotEmitted(viewer.documentOpened), qtbot.assertNotEmitted(viewer.document.statusChanged):
        assert viewer.open(pdf, 4, quote_rects(pdf, 4))
    assert viewer.current_page() == 4 and 3 in viewer.view.highlights
    make_pdf(pdf, rotate_page=1)  # the file changed on disk: loaded again
    with qtbot.waitSignal(viewer.documentOpened, timeout=1000):
        assert viewer.open(pdf, 4)


def test_a_page_that_does_not_exist_opens_the_last_one_and_says_so(viewer: PdfViewer, pdf: Path) -> None:
    assert viewer.open(pdf, 99)
    assert viewer.current_page() == PAGES and "Page 99 does not exist" in viewer.notice.text()
    assert viewer.open(pdf, 2) and viewer.notice.isHidden()


# --- navigation, keys, search ------------------------------------------------------------------------


def test_page_buttons_box_and_keys(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    assert viewer.open(pdf, 1)
    assert not viewer.prev_action.isEnabled() and viewer.next_action.isEnabled()
    with qtbot.waitSignal(viewer.pageChanged, timeout=1000, check_params_cb=lambda page: page == 2):
        viewer.next_action.trigger()
    assert viewer.page_box.text() == f"2 / {PAGES}"
    viewer.page_box.lineEdit().selectAll()
    qtbot.keyClicks(viewer.page_box, "5")
    with qtbot.waitSignal(viewer.pageChanged, timeout=1000, check_params_cb=lambda page: page == 5):
        qtbot.keyClick(viewer.page_box, Qt.Key.Key_Return)
    viewer.view.setFocus()
    qtbot.keyClick(viewer.view, Qt.Key.Key_PageDown)
    assert viewer.current_page() == 6 and not viewer.next_action.isEnabled()
    qtbot.keyClick(viewer.view, Qt.Key.Key_PageDown)  # the last page stays
    qtbot.keyClick(viewer.view, Qt.Key.Key_PageUp)
    assert viewer.current_page() == 5
    viewer.previous_page()
    assert viewer.current_page() == 4 and viewer.page_box.value() == 4


def test_zoom_keys(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    assert viewer.open(pdf, 3, quote_rects(pdf, 3))
    fitted = viewer.view.effective_zoom()
    viewer.view.setFocus()
    qtbot.keyClick(viewer.view, Qt.Key.Key_Plus, Qt.KeyboardModifier.ControlModifier)
    assert viewer.view.zoomMode() == ZoomMode.Custom
    assert viewer.view.effective_zoom() == pytest.approx(fitted * 1.25, rel=0.01)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(viewer.view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert viewer.view.effective_zoom() == pytest.approx(fitted / 1.25, rel=0.01)
    qtbot.keyClick(viewer.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)  # back to the text's width
    assert viewer.view.text_fit and viewer.view.effective_zoom() == pytest.approx(fitted, rel=0.01)
    assert_highlight_on_quote(qtbot, viewer, 3, quote_rects(pdf, 3)[0])


def test_search_finds_a_word_and_moves_to_its_page(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    assert viewer.open(pdf, 1)
    viewer.view.setFocus()
    qtbot.keyClick(viewer.view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    assert viewer.search_box.hasFocus()
    qtbot.keyClicks(viewer.search_box, "kalenderjahr")
    qtbot.waitUntil(lambda: viewer.count_label.text() == "1 match", timeout=5000)
    with qtbot.waitSignal(viewer.pageChanged, timeout=1000, check_params_cb=lambda page: page == 5):
        qtbot.keyClick(viewer.search_box, Qt.Key.Key_Return)
    assert viewer.count_label.text() == "1 / 1" and viewer.search.result == 0
    assert viewer.view.search_current is not None and viewer.view.search_current[0] == 4  # marked on page 5

    viewer.search_box.setText("Überschrift")  # umlauts: setText, keyClicks types ASCII only
    qtbot.waitUntil(lambda: viewer.count_label.text() == f"{PAGES} matches", timeout=5000)
    viewer.next_result()  # from the page in view (5), not from page 1
    assert viewer.current_page() == 5 and viewer.count_label.text() == f"5 / {PAGES}"
    viewer.next_result()
    viewer.next_result()  # past the last: round to the first
    assert viewer.current_page() == 1 and viewer.count_label.text() == f"1 / {PAGES}"
    viewer.previous_result()
    assert viewer.current_page() == PAGES

    viewer.search_box.setText("Quantenschaum")
    qtbot.waitUntil(lambda: viewer.count_label.text() == "No matches", timeout=5000)
    viewer.next_result()
    assert viewer.current_page() == PAGES


def test_search_and_zoom_stay_in_sight_at_the_default_width(qtbot, viewer: PdfViewer, pdf: Path) -> None:  # noqa: ANN001
    """At the window's default PDF pane width (520 px) the search went into the toolbar's overflow and
    the zoom had no number."""
    viewer.resize(520, 700)
    viewer.show()
    qtbot.waitExposed(viewer)
    assert viewer.open(pdf, 1)
    qtbot.waitUntil(lambda: viewer.zoom_label.text().endswith("%"), timeout=5000)
    assert viewer.search_box.isVisible() and viewer.count_label.isVisible() and viewer.zoom_label.isVisible()
    before = viewer.zoom_label.text()
    viewer.zoom_in()
    qtbot.waitUntil(lambda: viewer.zoom_label.text() != before, timeout=5000)
    shown = round(100 * viewer.view.effective_zoom())
    assert viewer.zoom_label.text().replace("\u00a0", " ") in (f"{shown}%", f"{shown} %")


def test_the_empty_pane_says_how_a_page_gets_there(viewer: PdfViewer, pdf: Path) -> None:
    assert viewer.stack.currentWidget() is viewer.message and "citation" in viewer.message.text()
    assert viewer.open(pdf, 1) and viewer.stack.currentWidget() is viewer.view
