"""ReportView: the finished report in the window — answer with clickable [n] markers and sources,
findings by tier, drift-filtered items, quality gauges, run metadata, export and copy buttons.

The report's own words (labels included) are in the report's language; the widget's chrome (tabs,
buttons) goes through ``self.tr``. Every LLM-written string is escaped by report_html before it reaches
a QTextBrowser, and the browsers never follow a link themselves: links only resolve to citations.
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import QEvent, QMimeData, QPoint, Qt, QUrl, Signal
from PySide6.QtGui import QAction, QFont, QGuiApplication, QIcon, QPalette
from PySide6.QtWidgets import (
    QHBoxLayout,
    QMenu,
    QStyle,
    QTabWidget,
    QTextBrowser,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from desktop.report.labels import labels_for, percent
from desktop.report.markdown import md_safe, source_line
from desktop.report.model import Report
from desktop.ui import report_html
from desktop.ui.cite_text import cited, place
from desktop.ui.elided_label import ElidedLabel
from desktop.ui.review_panel import ReviewPanel
from desktop.ui.gauge import Gauge
from desktop.ui.icons import icon
from desktop.ui.report_links import resolve

EXPORT_FORMATS: tuple[str, ...] = ("md", "html", "pdf", "docx", "json", "all")
HEADER_LINES = 3  # of the title, and of the question where it is not the title
SCOPE_LINES = 2
ACCEPTED_ONLY = "accepted"  # every format, the answer cut to the accepted claims


def _same_report(a: Report, b: Report) -> bool:
    """The same report, its review marks aside."""
    return a.model_copy(update={"review": {}}) == b.model_copy(update={"review": {}})


def answer_markdown(report: Report) -> str:
    """The answer for the clipboard: its Markdown (tags defused) plus the numbered sources, so the
    pasted [n] markers still say where each claim comes from."""
    lab = labels_for(report)
    lines = [md_safe(report.answer.strip()), "", f"## {lab['sources']}", ""]
    for c in sorted(report.citations, key=lambda c: c.n):
        lines += [source_line(report, c), ""]
    return "\n".join(lines).rstrip() + "\n"


class ReportView(QWidget):
    citationActivated = Signal(object)  # desktop.report.model.Citation (for findings a Citation-shaped copy)
    exportRequested = Signal(str)  # one of EXPORT_FORMATS, or ACCEPTED_ONLY
    reviewRequested = Signal(str, object, str)  # target, status or None, note (ReviewPanel)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._report: Report | None = None
        # each at most a few lines, the whole text in its tooltip: the answer below needs the height
        self.title_label = self._plain_label(HEADER_LINES, bold=True)
        self.question_label = self._plain_label(HEADER_LINES)
        self.scope_label = self._plain_label(SCOPE_LINES)
        self.answer_browser = self._make_browser("answer_browser")
        self.findings_browser = self._make_browser("findings_browser")
        self.filtered_browser = self._make_browser("filtered_browser")
        self.quality_browser = self._make_browser("quality_browser")
        self.run_browser = self._make_browser("run_browser")
        self.verified_gauge = Gauge()
        self.cited_gauge = Gauge()
        self.tabs = QTabWidget()
        self.findings_browser.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.findings_browser.customContextMenuRequested.connect(self._finding_menu)
        self.answer_browser.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.answer_browser.customContextMenuRequested.connect(self._answer_menu)
        self.review = ReviewPanel()
        self.review.reviewRequested.connect(self.reviewRequested)
        self.review.citationActivated.connect(self.citationActivated)
        # one Export button (every format) with a menu of the single formats: a row of format buttons was
        # the widest thing in the window and left the PDF pane 320 px at 1280 px in German
        self.export_button = QToolButton()
        self.export_button.setIcon(icon("export"))
        self.export_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.export_button.setPopupMode(QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.export_actions: dict[str, QAction] = {}
        self.copy_button = QToolButton()
        self.copy_button.setIcon(icon("copy"))
        self.copy_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self._build_layout()
        self.retranslate()
        self._set_actions_enabled(False)

    # --- public API -----------------------------------------------------------------------------------

    def show_report(self, report: Report) -> None:
        if self._report is not None and _same_report(self._report, report):
            self._report = report  # only its review marks changed: the view stays where the reviewer is
            self.review.update_marks(report)
            scroll = self.findings_browser.verticalScrollBar().value()
            self.findings_browser.setHtml(report_html.findings_html(report))
            self.findings_browser.verticalScrollBar().setValue(scroll)
            return
        self._report = report
        self.review.set_report(report)
        self._show_header(report)
        self._render(report)
        self._show_gauges(report)
        self._mark_drift(report)
        self._set_actions_enabled(True)
        self.tabs.setCurrentIndex(0)

    def report(self) -> Report | None:
        return self._report

    def clear(self) -> None:
        self._report = None
        self.review.set_report(None)
        for label in (self.title_label, self.question_label, self.scope_label):
            label.set_full_text("")
        for browser in self.browsers():
            browser.clear()
        self.verified_gauge.set_value(0, 1.0, "", "")
        self.cited_gauge.set_value(0, 1, "", "")
        self._mark_drift(None)
        self._set_actions_enabled(False)

    def copy_answer(self) -> None:
        if self._report is None:
            return
        text = answer_markdown(self._report)
        mime = QMimeData()
        mime.setText(text)
        mime.setData("text/markdown", text.encode("utf-8"))  # for editors that take Markdown as such
        QGuiApplication.clipboard().setMimeData(mime)

    def activate_link(self, href: str) -> None:
        """What a click on a link does; also reachable by keyboard (Tab to a link, Enter)."""
        if self._report is None:
            return
        citation = resolve(self._report, href)
        if citation is not None:
            self.citationActivated.emit(citation)

    # --- construction ---------------------------------------------------------------------------------

    def _plain_label(self, lines: int, bold: bool = False) -> ElidedLabel:
        label = ElidedLabel(lines)  # titles and questions come from the LLM or the user: plain text
        if bold:
            font = QFont(label.font())
            font.setBold(True)
            font.setPointSizeF(font.pointSizeF() * 1.3)
            label.setFont(font)
        return label

    def _make_browser(self, name: str) -> QTextBrowser:
        browser = QTextBrowser()
        browser.setObjectName(name)
        browser.setOpenLinks(False)  # links are ours to resolve; the browser must never navigate
        browser.setOpenExternalLinks(False)
        browser.anchorClicked.connect(self._on_anchor_clicked)
        return browser

    def _build_layout(self) -> None:
        quality = QWidget()
        gauges = QHBoxLayout()
        gauges.addWidget(self.verified_gauge)
        gauges.addWidget(self.cited_gauge)
        gauges.addStretch(1)
        quality_layout = QVBoxLayout(quality)
        quality_layout.addLayout(gauges)
        quality_layout.addWidget(self.quality_browser, 1)
        for widget in (self.answer_browser, self.review, self.findings_browser, self.filtered_browser, quality,
                       self.run_browser):
            self.tabs.addTab(widget, "")

        actions = QHBoxLayout()
        menu = QMenu(self.export_button)
        for fmt in (*EXPORT_FORMATS, ACCEPTED_ONLY):
            action = QAction(self)
            action.triggered.connect(lambda _checked=False, f=fmt: self.exportRequested.emit(f))
            self.export_actions[fmt] = action
            if fmt == ACCEPTED_ONLY:
                menu.addSeparator()
            if fmt != "all":
                menu.addAction(action)
        self.export_button.setMenu(menu)
        self.export_button.setDefaultAction(self.export_actions["all"])
        self.export_button.setObjectName("export")
        actions.addWidget(self.export_button)
        actions.addStretch(1)
        self.copy_button.setObjectName("copy_answer")
        self.copy_button.clicked.connect(self.copy_answer)
        actions.addWidget(self.copy_button)

        layout = QVBoxLayout(self)
        for label in (self.title_label, self.question_label, self.scope_label):
            layout.addWidget(label)
        layout.addWidget(self.tabs, 1)
        layout.addLayout(actions)

    def retranslate(self) -> None:
        """The widget's own strings; the report's content keeps the report's language."""
        titles = (self.tr("Answer"), self.tr("Review"), self.tr("Findings"), self.tr("Filtered"), self.tr("Quality"),
                  self.tr("Run"))
        for index, title in enumerate(titles):
            self.tabs.setTabText(index, title)
        self.review.retranslate()
        texts = {
            "md": (self.tr("Markdown"), self.tr("Save the report as Markdown (report.md)")),
            "html": (self.tr("HTML"), self.tr("Save the report as a web page (report.html)")),
            "pdf": (self.tr("PDF"), self.tr("Save the report as PDF (report.pdf)")),
            "docx": (self.tr("DOCX"), self.tr("Save the report as a Word document (report.docx)")),
            "json": (self.tr("JSON"), self.tr("Save the report's data (report.json)")),
            "all": (self.tr("Export all"), self.tr("Save the report in every format (the arrow: one format)")),
            ACCEPTED_ONLY: (self.tr("Accepted claims only…"),
                            self.tr("Every format, the answer cut to the claims the reviewer accepted")),
        }
        for fmt, (text, tip) in texts.items():
            self.export_actions[fmt].setText(text)
            self.export_actions[fmt].setToolTip(tip)
        self.export_actions["all"].setIcon(icon("export"))
        self.copy_button.setText(self.tr("Copy answer"))
        self.copy_button.setToolTip(self.tr("Copy the answer and its sources as Markdown"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        elif event.type() in (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange) and self._report:
            self._render(self._report)  # the style sheet only applies to HTML set after it
        super().changeEvent(event)

    # --- filling in ------------------------------------------------------------------------------------

    def browsers(self) -> tuple[QTextBrowser, ...]:
        return (self.answer_browser, self.findings_browser, self.filtered_browser, self.quality_browser, self.run_browser)

    def _render(self, report: Report) -> None:
        palette = self.palette()
        dark = palette.color(QPalette.ColorRole.Base).lightness() < 128
        sheet = report_html.style_sheet(dark, palette.color(QPalette.ColorRole.Text).name())
        for browser, section in zip(self.browsers(), report_html.SECTIONS, strict=True):
            browser.document().setDefaultStyleSheet(sheet)
            browser.setHtml(section(report))

    def _show_header(self, report: Report) -> None:
        lab = labels_for(report)
        self.title_label.set_full_text(report.title)
        # the engine titles a report with its question: said once, as the title (seen at 1280×720: a research
        # question said twice took the height the quality tab's gauges needed, and "100 %" showed as "0")
        asked = " ".join(report.question.split()) != " ".join(report.title.split())
        self.question_label.set_full_text(f"{lab['question']}: {report.question}" if asked else "")
        self.question_label.setVisible(asked)
        self.scope_label.set_full_text(f"{lab['scope']}: {report.scope}" if report.scope.strip() else "")
        self.scope_label.setVisible(bool(report.scope.strip()))

    def _show_gauges(self, report: Report) -> None:
        # measured figures, which the model cannot inflate; its own rating is in the quality tab, as that
        lab, q = labels_for(report), report.quality
        self.verified_gauge.set_value(q.verified_quote_share, 1.0, percent(q.verified_quote_share), lab["verified_share"])
        self.cited_gauge.set_value(q.cited_sentence_share, 1.0, percent(q.cited_sentence_share), lab["cited_share"])

    def _mark_drift(self, report: Report | None) -> None:
        # A warning icon on the tab, so a drift warning is seen without opening the tab.
        index = self.tabs.indexOf(self.filtered_browser)
        warning = report.drift_warning if report is not None else None
        icon = self.style().standardIcon(QStyle.StandardPixmap.SP_MessageBoxWarning) if warning else QIcon()
        self.tabs.setTabIcon(index, icon)
        # escaped rich text: Qt would otherwise guess whether the warning's own "<...>" is markup
        self.tabs.setTabToolTip(index, f"<p>{escape(warning)}</p>" if warning else "")

    def _set_actions_enabled(self, enabled: bool) -> None:
        for action in self.export_actions.values():
            action.setEnabled(enabled)
        self.copy_button.setEnabled(enabled)

    def _add_copy_quote(self, menu: QMenu, href: str) -> None:
        """'Copy quote with citation' for a link to a verified quote: “…” (StrlSchG § 77, p. 52)."""
        c = resolve(self._report, href) if self._report is not None and href else None
        if c is not None and c.quote_verified and c.quote:
            text = cited(c.quote, [place(c.doc, c.page, c.section)])
            menu.addSeparator()
            menu.addAction(self.tr("Copy quote with citation"), lambda: QGuiApplication.clipboard().setText(text))

    def _answer_menu(self, pos: QPoint) -> None:
        menu = self.answer_browser.createStandardContextMenu(pos)
        self._add_copy_quote(menu, self.answer_browser.anchorAt(pos))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.answer_browser.viewport().mapToGlobal(pos))

    def _finding_menu(self, pos: QPoint) -> None:
        """Right-click on a finding: the reviewer's verdict on it (kept as "finding:GROUP.N"), and on one of
        its quotes the quote with its citation."""
        href = self.findings_browser.anchorAt(pos)
        scheme, _, target = href.partition(":")
        parts = target.split(".")
        menu = self.findings_browser.createStandardContextMenu(pos)
        self._add_copy_quote(menu, href)
        if scheme == "finding" and len(parts) >= 2 and self._report is not None:
            key = f"finding:{parts[0]}.{parts[1]}"
            menu.addSeparator()
            for status, text in (("accepted", self.tr("Accept finding")), ("rejected", self.tr("Reject finding")),
                                 ("to_check", self.tr("Finding to check")), (None, self.tr("Take the mark back"))):
                menu.addAction(text, lambda s=status: self.reviewRequested.emit(key, s, ""))
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(self.findings_browser.viewport().mapToGlobal(pos))

    def _on_anchor_clicked(self, url: QUrl) -> None:
        self.activate_link(url.toString())
