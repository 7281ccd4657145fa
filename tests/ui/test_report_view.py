"""ReportView with a realistic German report built by hand: umlauts, §, „quotes“, verified and
unverified quotes, three tiers, a drift-filtered finding, and LLM text that tries to be HTML."""

from __future__ import annotations

import re

import pytest
from PySide6.QtCore import QEvent, Qt, QUrl
from PySide6.QtGui import (
    QColor,
    QGuiApplication,
    QHelpEvent,
    QPalette,
    QTextDocument,
)
from PySide6.QtWidgets import QApplication, QToolTip
from support.german_report import (
    QUOTE_1,
    QUOTE_3,
    QUOTE_MERKBLATT,
    UNVERIFIED,
    UNVERIFIED_FINDING,
    NOT_BOLD,
    INJECTED_LINK,
    INJECTED_IMAGE,
    SECTION_3,
    RECTS_1,
    RECTS_3,
    RECTS_MERKBLATT,
    MARKER,
    german_report,
)
from support.qt_text import anchor_point, anchors, blocks, fragments

from desktop.report.model import (
    Citation,
    Report,
)
from desktop.ui.report_view import EXPORT_FORMATS, ReportView, answer_markdown

@pytest.fixture
def report() -> Report:
    return german_report()


@pytest.fixture
def view(qtbot, report: Report) -> ReportView:  # noqa: ANN001 - pytest-qt's fixture
    widget = ReportView()
    qtbot.addWidget(widget)
    widget.resize(1100, 800)
    widget.show_report(report)
    widget.show()
    qtbot.waitExposed(widget)
    return widget


# --- helpers -----------------------------------------------------------------------------------------


def rendered(rich_text: str) -> str:
    doc = QTextDocument()
    doc.setHtml(rich_text)
    return doc.toPlainText()


def all_text(view: ReportView) -> str:
    return "\n".join(b.toPlainText() for b in view.browsers())


def all_tooltips(view: ReportView) -> list[str]:
    return [rendered(f.charFormat().toolTip()) for b in view.browsers() for f in fragments(b) if f.charFormat().toolTip()]


# --- the answer and its markers --------------------------------------------------------------------


def test_every_marker_of_a_known_source_is_a_cite_anchor(view: ReportView, report: Report) -> None:
    known = {c.n for c in report.citations}
    expected = [int(n) for m in MARKER.finditer(report.answer) for n in re.findall(r"\d+", m.group(1))]
    expected = [n for n in expected if n in known]
    markers = [(text, href) for text, href in anchors(view.answer_browser) if re.fullmatch(r"\[?\d+\]?", text)]
    assert [href for _, href in markers] == [f"cite:{n}" for n in expected]
    assert all(text.strip("[]") == href.removeprefix("cite:") for text, href in markers)
    # [9] has no source: it stays text, never a dead link
    assert "[9]" in view.answer_browser.toPlainText()
    assert "cite:9" not in {href for _, href in anchors(view.answer_browser)}


def test_clicking_a_marker_emits_its_citation(qtbot, view: ReportView) -> None:  # noqa: ANN001
    point = anchor_point(view.answer_browser, "cite:3")
    with qtbot.waitSignal(view.citationActivated, timeout=2000) as blocker:
        qtbot.mouseClick(view.answer_browser.viewport(), Qt.MouseButton.LeftButton, pos=point)
    citation = blocker.args[0]
    assert isinstance(citation, Citation)
    assert (citation.n, citation.doc, citation.page) == (3, "Leitfaden Übersicht.pdf", 4)
    assert citation.rects == RECTS_3 and citation.quote == QUOTE_3


def test_clicking_a_source_line_emits_its_citation(qtbot, view: ReportView) -> None:  # noqa: ANN001
    sources = [text for text, href in anchors(view.answer_browser) if href == "cite:1" and "StrlSchG.pdf" in text]
    assert sources == ["[1] StrlSchG.pdf, S. 12, § 80"]
    with qtbot.waitSignal(view.citationActivated, timeout=2000) as blocker:
        view.answer_browser.anchorClicked.emit(QUrl("cite:1"))
    assert blocker.args[0].page == 12 and blocker.args[0].rects == RECTS_1


def test_hovering_a_marker_shows_doc_page_and_quote(view: ReportView) -> None:
    browser = view.answer_browser
    for href, expected, absent in (
        ("cite:1", ["StrlSchG.pdf", "S. 12", f"„{QUOTE_1}“", "verifiziert"], []),
        ("cite:2", ["StrlSchV.pdf", "S. 8", "Zitat nicht verifiziert"], [UNVERIFIED]),
        ("cite:3", [f"S. 4, {SECTION_3}", f"„{QUOTE_3}“"], []),
    ):
        point = anchor_point(browser, href)
        event = QHelpEvent(QEvent.Type.ToolTip, point, browser.viewport().mapToGlobal(point))
        QApplication.sendEvent(browser.viewport(), event)
        tip = rendered(QToolTip.text())  # what the user reads: the tooltip is rich text
        QToolTip.hideText()
        assert all(part in tip for part in expected), tip
        assert not any(part in tip for part in absent), tip


# --- verified and unverified quotes --------------------------------------------------------------------


def test_unverified_quotes_never_appear_in_quotation_marks(view: ReportView) -> None:
    shown = [all_text(view), *all_tooltips(view)]
    for text in (UNVERIFIED, UNVERIFIED_FINDING):
        for left, right in (("„", "“"), ("“", "”"), ('"', '"')):
            assert all(f"{left}{text}{right}" not in s for s in shown)
    # the unverified source names no quote at all; the finding shows its words only as a paraphrase
    source_2 = next(b for b in blocks(view.answer_browser) if b.startswith("[2] "))
    assert UNVERIFIED not in source_2 and "Zitat nicht verifiziert" in source_2
    assert f"Paraphrase, nicht verifiziert: {UNVERIFIED_FINDING}" in view.findings_browser.toPlainText()


def test_the_badge_appears_only_for_verified_quotes(view: ReportView) -> None:
    sources = {b[1]: b for b in blocks(view.answer_browser) if re.match(r"\[\d\] ", b)}
    assert "✓ verifiziert" in sources["1"] and f"„{QUOTE_1}“" in sources["1"]
    assert "✓ verifiziert" in sources["3"] and "unscharfer Abgleich" in sources["3"]
    assert "✓" not in sources["2"] and "verifiziert" not in sources["2"].replace("nicht verifiziert", "")
    found = {b.split("\u2028")[0]: b for b in blocks(view.findings_browser) if "\u2028" in b}
    assert "✓ verifiziert" in found["Grenzwert 1 mSv für die Bevölkerung [1]"]
    assert "✓" not in next(b for k, b in found.items() if k.startswith("Schulungspflicht"))
    badge = next(f for f in fragments(view.answer_browser) if "✓" in f.text())
    assert badge.charFormat().foreground().color() == QColor("#1b6e2a")


# --- findings and filtered items -----------------------------------------------------------------------


def test_findings_show_tiers_quotes_and_references(view: ReportView) -> None:
    text = view.findings_browser.toPlainText()
    for part in ("Primär", "Sekundär", "Tertiär", "gefunden über Verweis aus: StrlSchV S. 8 § 3",
                 f"„{QUOTE_MERKBLATT}“", "Merkblatt Überwachung.pdf, S. 2", "Relevanz 0.95"):
        assert part in text, part


def test_clicking_a_findings_quote_emits_a_citation_with_its_rects(qtbot, view: ReportView) -> None:  # noqa: ANN001
    hrefs = [href for _, href in anchors(view.findings_browser)]
    assert "finding:primary.0.0" in hrefs and "finding:tertiary.0.0" in hrefs
    assert "finding:secondary.0.0" not in hrefs  # an unverified quote is no link to a highlight
    with qtbot.waitSignal(view.citationActivated, timeout=2000) as blocker:
        view.findings_browser.anchorClicked.emit(QUrl("finding:primary.0.0"))
    c = blocker.args[0]
    assert (c.n, c.doc, c.path, c.page, c.rects, c.quote_verified) == (1, "StrlSchG.pdf", "/daten/StrlSchG.pdf", 12, RECTS_1, True)
    # a finding the answer does not cite: its document and the quote's own page, no borrowed path
    with qtbot.waitSignal(view.citationActivated, timeout=2000) as blocker:
        qtbot.mouseClick(view.findings_browser.viewport(), Qt.MouseButton.LeftButton,
                         pos=anchor_point(view.findings_browser, "finding:tertiary.0.0"))
    c = blocker.args[0]
    assert (c.n, c.doc, c.path, c.page, c.rects, c.quote) == (0, "Merkblatt Überwachung.pdf", "", 3, RECTS_MERKBLATT, QUOTE_MERKBLATT)


def test_a_finding_with_only_unverified_quotes_opens_its_page_without_highlight(qtbot, view: ReportView) -> None:  # noqa: ANN001
    with qtbot.waitSignal(view.citationActivated, timeout=2000) as blocker:
        view.findings_browser.anchorClicked.emit(QUrl("finding:secondary.0"))
    c = blocker.args[0]
    assert (c.doc, c.page, c.rects, c.quote, c.quote_verified) == ("StrlSchV.pdf", 8, [], None, False)


def test_filtered_tab_shows_score_reason_and_the_drift_warning(view: ReportView) -> None:
    text = view.filtered_browser.toPlainText()
    for part in ("Einige Erkenntnisse wichen vom Thema ab.", "Grenzwerte für Lebensmittel nach Fukushima",
                 "Abweichung 0.81", "Grund: behandelt Lebensmittel, nicht Personendosis", "EU-Verordnung.pdf, S. 30"):
        assert part in text, part
    index = view.tabs.indexOf(view.filtered_browser)
    assert not view.tabs.tabIcon(index).isNull()


def test_unknown_or_foreign_links_emit_nothing(qtbot, view: ReportView) -> None:  # noqa: ANN001
    for href in ("cite:9", "finding:primary.7", "finding:nowhere.0", "https://example.org", "file:///etc/passwd"):
        with qtbot.assertNotEmitted(view.citationActivated):
            view.answer_browser.anchorClicked.emit(QUrl(href))


# --- escaping --------------------------------------------------------------------------------------------


def test_llm_text_is_escaped_everywhere(view: ReportView) -> None:
    answer = view.answer_browser
    assert NOT_BOLD in answer.toPlainText() and INJECTED_LINK in answer.toPlainText()
    not_bold = next(f for f in fragments(answer) if "not bold" in f.text())
    assert not_bold.charFormat().fontWeight() < 600 and not not_bold.charFormat().isAnchor()
    assert "hier" not in {text for b in view.browsers() for text, _ in anchors(b)}
    assert not any(f.charFormat().isImageFormat() for b in view.browsers() for f in fragments(b))
    assert INJECTED_IMAGE in view.findings_browser.toPlainText()
    assert view.title_label.textFormat() == Qt.TextFormat.PlainText and NOT_BOLD in view.title_label.text()


# --- quality, run, buttons ---------------------------------------------------------------------------------


def test_gauges_show_measured_figures_and_the_self_rating_is_labelled_as_that(view: ReportView) -> None:
    """The gauges show what the engine measured (a 1.5B model rated its own answer 400/400); the model's
    rating is in the quality tab, named as its own."""
    assert (view.verified_gauge.value(), view.verified_gauge.maximum(), view.verified_gauge.text()) == (2 / 3, 1.0, "67 %")
    assert view.verified_gauge.caption() == "Verifizierte Zitate"
    assert view.cited_gauge.text() == "88 %" and view.cited_gauge.caption() == "Sätze mit Quellenangabe"
    image = view.cited_gauge.grab().toImage()
    green = QColor("#2e7d32")  # 88 % is in the green band
    assert any(image.pixelColor(x, y) == green for x in range(image.width()) for y in range(image.height()))
    text = view.quality_browser.toPlainText()
    assert text.index("Sätze mit Quellenangabe") < text.index("Selbsteinschätzung des Sprachmodells")
    for part in ("Selbsteinschätzung des Sprachmodells: Belegtheit", "85 / 100", "Vollständigkeit", "70 / 100",
                 "Struktur", "Zitierungen", "Verifizierte Zitate", "67 %", "ja (erste Bewertung: 240 / 400)",
                 "Gut belegt."):
        assert part in text, part


def test_the_gauges_value_is_written_small_enough_to_fit_its_arc(qtbot) -> None:  # noqa: ANN001
    """Seen at 1280×720 in German: the header took the height, the gauge's arc shrank, and "100 %" in the
    value's font was clipped to "0" on both sides."""
    from PySide6.QtGui import QFont, QFontMetricsF

    from desktop.ui.gauge import value_font

    base = QFont()
    base.setPointSizeF(10.0)
    roomy = value_font(base, "100 %", 1000.0)
    assert roomy.bold() and roomy.pointSizeF() == 15.0
    narrow = value_font(base, "100 %", 40.0)
    assert narrow.pointSizeF() < 15.0 and QFontMetricsF(narrow).horizontalAdvance("100 %") <= 40.0


def test_a_report_titled_with_its_question_says_the_question_once(view: ReportView, report: Report) -> None:
    """The engine titles a report with its question; the header said it twice (title, then "Frage: …"), and a
    research question of several lines took most of the report's height at 1280×720."""
    view.show_report(report.model_copy(update={"title": report.question}))
    assert view.title_label.text() == report.question
    assert view.question_label.isHidden() and view.question_label.text() == ""
    view.show_report(report)  # a title of its own: the question below it
    assert not view.question_label.isHidden() and view.question_label.text().startswith("Frage: ")


LONG_QUESTION = ("Ein Betreiber gibt radioaktive Abfälle aus seiner Anlage zur Beförderung an einen anderen Standort ab. "
                 "Was muss er vor der Abgabe vom Empfänger einholen, mit welchem Vorlauf ist die Abgabe der Behörde "
                 "mitzuteilen und ein noch nicht feststehendes Beförderungsdatum nachzumelden, wie lange sind die "
                 "Angaben im elektronischen Buchführungssystem nach der Ablieferung an eine Anlage des Bundes "
                 "bereitzuhalten, und wem hat der Bund die Wahrnehmung seiner Aufgaben bei der Sicherstellung und "
                 "Endlagerung radioaktiver Abfälle zu übertragen?")


def test_a_long_question_as_title_takes_at_most_three_lines_and_its_tooltip_holds_all(
        view: ReportView, report: Report, qtbot) -> None:  # noqa: ANN001
    """laws-research-14 at 1280×720: the question as the bold title took nine lines, the last cut in half, and left
    the answer four lines of the report's height."""
    from PySide6.QtGui import QFontMetrics

    view.resize(480, 600)
    view.show()
    qtbot.waitExposed(view)
    view.show_report(report.model_copy(update={"title": LONG_QUESTION, "question": LONG_QUESTION}))
    title = view.title_label
    metrics = QFontMetrics(title.font())
    assert title.text().endswith("…") and LONG_QUESTION.startswith(title.text()[:-1].rstrip())
    assert title.toolTip() == LONG_QUESTION and title.full_text() == LONG_QUESTION
    wrapped = metrics.boundingRect(title.contentsRect(), int(Qt.TextFlag.TextWordWrap), title.text())
    assert wrapped.height() <= 3 * metrics.lineSpacing()
    view.show_report(report)  # a short title: whole, no tooltip
    assert view.title_label.text() == report.title and view.title_label.toolTip() == ""


def test_run_tab_shows_model_embedder_tokens_and_timings(view: ReportView) -> None:
    text = view.run_browser.toPlainText()
    for part in ("qwen3:8b", "multilingual-e5-small", "51234 / 8012", "Recherche", "3 min 05 s", "4 min 12 s"):
        assert part in text, part


def test_export_button_and_its_menu_emit_their_format(qtbot, view: ReportView) -> None:  # noqa: ANN001
    assert set(view.export_actions) == {*EXPORT_FORMATS, "accepted"} == {"md", "html", "pdf", "docx", "json", "all",
                                                                         "accepted"}
    with qtbot.waitSignal(view.exportRequested, timeout=2000) as blocker:
        qtbot.mouseClick(view.export_button, Qt.MouseButton.LeftButton)  # the button itself: every format
    assert blocker.args == ["all"]
    menu = view.export_button.menu().actions()
    assert [a.text() for a in menu] == ["Markdown", "HTML", "PDF", "DOCX", "JSON", "", "Accepted claims only…"]
    for fmt, action in view.export_actions.items():
        with qtbot.waitSignal(view.exportRequested, timeout=2000) as blocker:
            action.trigger()
        assert blocker.args == [fmt]


def test_copy_answer_puts_the_markdown_on_the_clipboard(qtbot, view: ReportView, report: Report) -> None:  # noqa: ANN001
    qtbot.mouseClick(view.copy_button, Qt.MouseButton.LeftButton)
    copied = QGuiApplication.clipboard().text()
    assert copied == answer_markdown(report)
    assert copied.startswith("# Überblick") and "[1, 2]" in copied and "## Quellen" in copied
    assert "&lt;b>not bold&lt;/b>" in copied  # tags defused for Markdown viewers
    assert "[2] StrlSchV.pdf, S. 8, § 3 — Zitat nicht verifiziert" in copied


def test_tabs_and_buttons_speak_the_ui_language_content_the_reports(view: ReportView) -> None:
    assert [view.tabs.tabText(i) for i in range(view.tabs.count())] == ["Answer", "Review", "Findings", "Filtered", "Quality", "Run"]
    assert view.copy_button.text() == "Copy answer"
    assert view.question_label.text().startswith("Frage: Welche Dosisgrenzwerte gelten nach § 80")
    assert "Quellen" in view.answer_browser.toPlainText()


def test_an_english_report_gets_english_labels(view: ReportView, report: Report) -> None:
    view.show_report(report.model_copy(update={"language": "en"}))
    assert "Sources" in view.answer_browser.toPlainText()
    assert "reached through a reference in: StrlSchV S. 8 § 3" in view.findings_browser.toPlainText()
    assert f"“{QUOTE_1}”" in view.answer_browser.toPlainText()


def test_clear_disables_the_actions(qtbot, view: ReportView) -> None:  # noqa: ANN001
    view.clear()
    assert view.report() is None and view.answer_browser.toPlainText() == ""
    assert not any(a.isEnabled() for a in view.export_actions.values()) and not view.copy_button.isEnabled()
    assert not view.export_button.isEnabled()
    with qtbot.assertNotEmitted(view.citationActivated):
        view.activate_link("cite:1")


def test_a_dark_palette_re_renders_with_readable_colours(view: ReportView) -> None:
    dark = QPalette(view.palette())
    for role, color in ((QPalette.ColorRole.Base, "#17181a"), (QPalette.ColorRole.Text, "#e8eaed"),
                        (QPalette.ColorRole.Window, "#202124"), (QPalette.ColorRole.WindowText, "#e8eaed")):
        dark.setColor(role, QColor(color))
    view.setPalette(dark)
    badge = next(f for f in fragments(view.answer_browser) if "✓" in f.text())
    assert badge.charFormat().foreground().color() == QColor("#81c995")
    quote = next(f for f in fragments(view.findings_browser) if f.charFormat().anchorHref() == "finding:primary.0.0")
    assert quote.charFormat().foreground().color() == QColor("#e8eaed")


def test_an_evidence_report_shows_no_grades(view: ReportView, report: Report) -> None:
    """Zeros that no rater gave are not grades: the quality tab says 'not assessed'; the gauges stay measured."""
    quality = report.quality.model_copy(update={"assessed": False, "grounding": 0, "completeness": 0, "structure": 0,
                                                "citations": 0, "total": 0, "revised": False, "first_total": None,
                                                "notes": "Das Sprachmodell konnte keine verwendbare Antwort schreiben."})
    view.show_report(report.model_copy(update={"kind": "evidence", "quality": quality}))
    assert view.verified_gauge.text() == "67 %"  # measured, whoever wrote the answer
    text = view.quality_browser.toPlainText()
    assert "Selbsteinschätzung des Sprachmodells" in text and "nicht bewertet" in text
    assert not re.search(r"\b0 / (100|400)", text)
    assert "keine verwendbare Antwort" in text
