"""The review tab: claim by claim, each claim's sources with signals named for what they check, verdicts
set by button or key, and the same report with new marks updated in place."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QApplication, QMenu
from support.german_report import german_report
from support.qt_text import anchor_point

from desktop.engine.claims import claims
from desktop.report.model import Report, ReviewMark
from desktop.ui.report_view import ReportView


@pytest.fixture
def report() -> Report:
    r = german_report()
    return r.model_copy(update={"claims": claims(r.answer, r.citations, "de")})


@pytest.fixture
def view(qtbot: Any, report: Report) -> ReportView:
    widget = ReportView()
    qtbot.addWidget(widget)
    widget.resize(900, 700)
    widget.show_report(report)
    widget.show()
    widget.tabs.setCurrentWidget(widget.review)
    return widget


def _marked(report: Report, **marks: str) -> Report:
    at = datetime(2026, 11, 27, 10, 0, tzinfo=timezone.utc)
    review = {f"claim:{i.removeprefix('c')}": ReviewMark(status=s, note="", by="anna", at=at) for i, s in marks.items()}
    return report.model_copy(update={"review": review})


def test_each_claim_shows_its_sources_with_honest_signals(view: ReportView, report: Report) -> None:
    panel = view.review
    assert panel.claims.count() == len(report.claims) == 4
    assert panel.claims.item(0).text().startswith("\u00b7  Der Dosisgrenzwert")
    detail = panel.detail.toPlainText()
    assert "[1] StrlSchG.pdf, S. 12, § 80" in detail and "quote verbatim on p. 12" in detail
    assert "the claim's figures stand in the quote" in detail and "of the claim's words stand in the quote" in detail
    panel.claims.setCurrentRow(1)  # "… höhere Grenzwerte [2]": its quote was not found on its page
    assert "quote not found on p. 8" in panel.detail.toPlainText()


def test_keys_mark_the_claim_and_open_its_sources(qtbot: Any, view: ReportView, report: Report) -> None:
    panel = view.review
    panel.claims.setFocus()
    panel.claims.setCurrentRow(3)  # "Schulungen sind vorgeschrieben [1, 2]."
    with qtbot.waitSignal(view.reviewRequested) as marked:
        qtbot.keyClick(panel.claims, Qt.Key.Key_R)
    assert marked.args == ["claim:3", "rejected", ""]
    opened: list[Any] = []
    view.citationActivated.connect(opened.append)
    qtbot.keyClick(panel.claims, Qt.Key.Key_BracketRight)
    qtbot.keyClick(panel.claims, Qt.Key.Key_BracketRight)
    assert [c.n for c in opened] == [1, 2]
    panel.note.setText("zweite Quelle prüfen")
    with qtbot.waitSignal(view.reviewRequested) as noted:
        qtbot.keyClick(panel.note, Qt.Key.Key_Return)
    assert noted.args == ["claim:3", "to_check", "zweite Quelle prüfen"]


def test_new_marks_update_the_list_in_place(view: ReportView, report: Report) -> None:
    view.review.claims.setCurrentRow(2)
    view.show_report(_marked(report, c0="accepted", c2="to_check"))
    assert view.tabs.currentWidget() is view.review and view.review.claims.currentRow() == 2  # where the reviewer is
    assert view.review.claims.item(0).text().startswith("\u2713") and view.review.claims.item(2).text().startswith("?")
    assert view.review.summary.text() == "4 claims: 1 accepted, 0 rejected, 1 to check"
    assert "to check by anna" in view.review.detail.toPlainText()


def test_a_report_without_claims_says_why(view: ReportView, report: Report) -> None:
    view.show_report(report.model_copy(update={"claims": [], "answer": "Anders."}))
    assert view.review.claims.count() == 0 and "no claims to review" in view.review.detail.toPlainText()
    assert not view.review.buttons["accepted"].isEnabled()


def test_a_finding_is_marked_from_its_context_menu_and_shows_its_verdict(qtbot: Any, view: ReportView,
                                                                         report: Report) -> None:
    view.tabs.setCurrentWidget(view.findings_browser)
    point = anchor_point(view.findings_browser, "finding:primary.0")
    view._finding_menu(point)
    menu = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible())
    accept = next(a for a in menu.actions() if a.text() == "Accept finding")
    with qtbot.waitSignal(view.reviewRequested) as marked:
        accept.trigger()
    menu.close()
    assert marked.args == ["finding:primary.0", "accepted", ""]
    at = datetime(2026, 11, 27, 10, 0, tzinfo=timezone.utc)
    mark = ReviewMark(status="accepted", note="passt", by="anna", at=at)
    view.show_report(report.model_copy(update={"review": {"finding:primary.0": mark}}))
    assert "Prüfung: angenommen (anna): passt" in view.findings_browser.toPlainText()


def test_claims_and_quotes_copy_with_their_citation(qtbot: Any, view: ReportView) -> None:
    panel = view.review
    panel.claims.setFocus()
    panel.claims.setCurrentRow(0)
    qtbot.keyClick(panel.claims, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.clipboard().text() == (
        "“Der Dosisgrenzwert für Einzelpersonen der Bevölkerung beträgt 1 mSv im Kalenderjahr.” (StrlSchG § 80, p. 12)")
    view.tabs.setCurrentWidget(view.answer_browser)
    view._answer_menu(anchor_point(view.answer_browser, "cite:1"))
    menu = next(w for w in QApplication.topLevelWidgets() if isinstance(w, QMenu) and w.isVisible())
    next(a for a in menu.actions() if a.text() == "Copy quote with citation").trigger()
    menu.close()
    assert QApplication.clipboard().text().startswith("“Der Grenzwert der effektiven Dosis") \
        and QApplication.clipboard().text().endswith("Kalenderjahr.” (StrlSchG § 80, p. 12)")


def test_each_source_shows_the_page_region_of_its_quote(qtbot: Any, report: Report, tmp_path) -> None:  # noqa: ANN001
    import pymupdf

    from desktop.report.model import Rect

    pdf = tmp_path / "StrlSchG.pdf"
    with pymupdf.open() as doc:
        page = doc.new_page()
        page.insert_text((72, 300), "Der Grenzwert der effektiven Dosis beträgt 1 Millisievert.", fontsize=11)
        doc.save(pdf)
    with pymupdf.open(pdf) as doc:
        rects = [Rect(x0=r.x0, y0=r.y0, x1=r.x1, y1=r.y1) for r in doc[0].search_for("1 Millisievert")]
    first = report.citations[0].model_copy(update={"path": str(pdf), "page": 1, "rects": rects})
    widget = ReportView()
    qtbot.addWidget(widget)
    widget.show_report(report.model_copy(update={"citations": [first, *report.citations[1:]]}))
    panel = widget.review
    qtbot.waitUntil(lambda: "preview:0.1" in panel.detail.toHtml(), timeout=10_000)
    image = panel.detail.document().resource(QTextDocument.ResourceType.ImageResource, QUrl("preview:0.1"))
    assert image.width() > 100 and image.height() > 30  # the quote and a margin of its page around it
    widget.resize(900, 700)
    widget.show()
    widget.tabs.setCurrentWidget(panel)
    qtbot.waitUntil(lambda: panel.detail.horizontalScrollBar().maximum() == 0, timeout=5000)  # no wider than the pane
