"""Claim by claim: the report's cited sentences in a list, the selected one's sources side by side — each
with a preview of the page region its quote stands in — and honest signals — the quote stands verbatim on its page, the claim's figures stand in the quote, how many
of its words do — and the reviewer's verdict (accepted, rejected, to check) with a note.

Keys in the list: ↑/↓ the previous or next claim, A accept, R reject, C to check, Delete take the mark
back, N the note, ] and [ open the claim's next or previous source in the viewer (Enter: its first),
Ctrl+C copies the claim with its citation.
"""

from __future__ import annotations

from html import escape
from pathlib import Path

from PySide6.QtCore import QEvent, QObject, Qt, QUrl, Signal
from PySide6.QtGui import QGuiApplication, QImage, QKeyEvent, QKeySequence, QTextDocument
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from desktop.report.labels import citation_location, quoted
from desktop.report.model import Citation, Claim, ClaimSource, Report, ReviewStatus
from desktop.report.review import claim_key, claim_mark
from desktop.ui.cite_text import cited, place
from desktop.ui.icons import icon
from desktop.ui.page_preview import Previews
from desktop.ui.report_links import cite_href

GLYPHS: dict[str | None, str] = {"accepted": "\u2713", "rejected": "\u2717", "to_check": "?", None: "\u00b7"}
WEAK_TERMS = 0.3  # below this share of its words in a quote, a claim is flagged as not found there
_KEYS: dict[int, ReviewStatus] = {Qt.Key.Key_A: "accepted", Qt.Key.Key_R: "rejected", Qt.Key.Key_C: "to_check"}


class ReviewPanel(QWidget):
    reviewRequested = Signal(str, object, str)  # target ("claim:3"), status or None, note
    citationActivated = Signal(object)  # Citation

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report: Report | None = None
        self._source = -1  # the claim's source last opened with ] or [
        self._previews: dict[str, QImage] = {}  # "preview:claim.n" -> the page region of that source's quote
        self.previews = Previews(self)
        self.previews.ready.connect(self._preview_ready)
        self.claims = QListWidget(objectName="review_claims")
        self.claims.setWordWrap(True)
        self.claims.currentRowChanged.connect(self._show_claim)
        self.claims.installEventFilter(self)
        self.detail = QTextBrowser(objectName="review_detail")
        self.detail.setOpenLinks(False)
        self.detail.anchorClicked.connect(self._open_link)
        self.detail.viewport().installEventFilter(self)  # previews follow the pane's width
        self.summary = QLabel(wordWrap=True)
        self.note = QLineEdit()
        self.note.returnPressed.connect(self._save_note)
        self.buttons: dict[ReviewStatus, QPushButton] = {}
        row = QHBoxLayout()
        for status, meaning in (("accepted", "approve"), ("rejected", "cancel"), ("to_check", "question")):
            button = QPushButton(icon(meaning), "")
            button.clicked.connect(lambda _=False, s=status: self.mark(s))
            self.buttons[status] = button
            row.addWidget(button)
        row.addStretch(1)
        right = QWidget()
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.addWidget(self.detail, 1)
        right_layout.addLayout(row)
        right_layout.addWidget(self.note)  # a row of its own: beside the buttons it was three letters wide
        split = QSplitter(Qt.Orientation.Horizontal, objectName="review-split")
        split.addWidget(self.claims)
        split.addWidget(right)
        split.setSizes([260, 420])
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(split, 1)
        self.retranslate()
        self._enable(False)

    def retranslate(self) -> None:
        texts = {"accepted": (self.tr("Accept"), "A"), "rejected": (self.tr("Reject"), "R"),
                 "to_check": (self.tr("To check"), "C")}
        for status, (text, key) in texts.items():
            self.buttons[status].setText(text)
            self.buttons[status].setToolTip(self.tr("{action} the selected claim ({key})").format(action=text, key=key))
        self.note.setPlaceholderText(self.tr("Note on this claim (N; Enter saves it)"))
        self._show_summary()

    # --- filling in --------------------------------------------------------------------------------

    def set_report(self, report: Report | None) -> None:
        """Another report (or none): the list anew, its first claim selected."""
        self.report = report
        self._previews.clear()
        self.claims.clear()
        for claim in report.claims if report else []:
            self.claims.addItem(QListWidgetItem())
        self._refresh_items()
        self._enable(bool(report and report.claims))
        self.claims.setCurrentRow(0 if report and report.claims else -1)
        if not (report and report.claims):
            self.detail.setHtml(f"<p>{escape(self._empty_text(report))}</p>")

    def update_marks(self, report: Report) -> None:
        """The same report with other marks: the list's verdicts and the shown claim, the selection kept."""
        self.report = report
        self._refresh_items()
        self._show_claim(self.claims.currentRow())

    def _empty_text(self, report: Report | None) -> str:
        if report is None:
            return ""
        return self.tr("This report has no claims to review: its answer cites no source, or it was made by an "
                       "older version (its findings can still be checked in Findings).")

    def _refresh_items(self) -> None:
        if self.report is None:
            return
        for claim in self.report.claims:
            mark = claim_mark(self.report, claim.index)
            item = self.claims.item(claim.index)
            item.setText(f"{GLYPHS[mark.status if mark else None]}  {claim.text}")
            item.setToolTip(self._status_text(mark.status if mark else None) + (f": {mark.note}" if mark and mark.note else ""))
        self._show_summary()

    def _status_text(self, status: str | None) -> str:
        return {"accepted": self.tr("accepted"), "rejected": self.tr("rejected"), "to_check": self.tr("to check"),
                None: self.tr("not reviewed")}[status]

    def _show_summary(self) -> None:
        report = self.report
        if report is None or not report.claims:
            self.summary.setText("")
            return
        counts = {s: sum(1 for c in report.claims if (m := claim_mark(report, c.index)) and m.status == s)
                  for s in ("accepted", "rejected", "to_check")}
        self.summary.setText(self.tr("{total} claims: {accepted} accepted, {rejected} rejected, {to_check} to check")
                             .format(total=len(report.claims), **counts))

    def _enable(self, enabled: bool) -> None:
        for widget in (*self.buttons.values(), self.note):
            widget.setEnabled(enabled)

    # --- the claim shown -----------------------------------------------------------------------------

    def current_claim(self) -> Claim | None:
        row = self.claims.currentRow()
        return self.report.claims[row] if self.report and 0 <= row < len(self.report.claims) else None

    def _show_claim(self, row: int) -> None:
        claim, report = self.current_claim(), self.report
        self._source = -1
        if claim is None or report is None:
            return
        mark = claim_mark(report, claim.index)
        self.note.setText(mark.note if mark else "")
        self._render_detail()

    def _render_detail(self) -> None:
        """The shown claim's sources; the note being typed is left alone."""
        claim, report = self.current_claim(), self.report
        if claim is None or report is None:
            return
        mark = claim_mark(report, claim.index)
        by_n = {c.n: c for c in report.citations}
        parts = [f"<p><b>{escape(claim.marked)}</b></p>",
                 f"<p><i>{escape(self._status_text(mark.status if mark else None))}"
                 + (escape(self.tr(" by {by}").format(by=mark.by)) if mark else "") + "</i></p>"]
        parts += [self._source_html(report, by_n[s.n], s) + self._preview_html(claim, by_n[s.n])
                  for s in claim.sources if s.n in by_n]
        self.detail.setHtml("".join(parts))

    def _preview_html(self, claim: Claim, c: Citation) -> str:
        """The page region of the quote, once rendered (asked for here, shown when it arrives)."""
        key = f"preview:{claim.index}.{c.n}"
        if key in self._previews:  # as wide as the pane allows, never wider (a scroll bar cut it otherwise)
            width = max(120, min(self._previews[key].width(), self.detail.viewport().width() - 24))
            return f'<p><img src="{key}" width="{width}"></p>'
        if c.quote_verified and c.rects:
            self.previews.request(key, Path(c.path), c.page, list(c.rects))
        return ""

    def _preview_ready(self, key: str, image: QImage) -> None:
        self._previews[key] = image
        self.detail.document().addResource(QTextDocument.ResourceType.ImageResource, QUrl(key), image)
        claim = self.current_claim()
        if claim is not None and key.startswith(f"preview:{claim.index}."):
            self._redraw()

    def _redraw(self) -> None:
        """The shown claim again (a preview arrived, or the pane's width changed), where the reader was."""
        scroll = self.detail.verticalScrollBar().value()
        self._render_detail()
        self.detail.verticalScrollBar().setValue(scroll)

    def _source_html(self, report: Report, c: Citation, s: ClaimSource) -> str:
        where = f'<a href="{cite_href(c.n)}"><b>[{c.n}]</b> {escape(citation_location(report, c))}</a>'
        quote = f"<br><i>{escape(quoted(report, c.quote))}</i>" if c.quote_verified and c.quote else ""
        signals = [self._signal(s.verbatim, self.tr("quote verbatim on p. {page}").format(page=c.page),
                                self.tr("quote not found on p. {page}").format(page=c.page))]
        if s.figures is not None:
            signals.append(self._signal(s.figures, self.tr("the claim's figures stand in the quote"),
                                        self.tr("the claim's figures are not in the quote")))
        if s.terms is not None:
            share = round(100 * s.terms)
            signals.append(self._signal(s.terms >= WEAK_TERMS,
                                        self.tr("{share}% of the claim's words stand in the quote").format(share=share),
                                        self.tr("only {share}% of the claim's words stand in the quote").format(share=share)))
        return f"<p>{where}{quote}<br>{'<br>'.join(signals)}</p>"

    @staticmethod
    def _signal(ok: bool, yes: str, no: str) -> str:
        color = "#1b6e2a" if ok else "#a4262c"
        return f'<span style="color:{color}">{"\u2713" if ok else "\u2717"} {escape(yes if ok else no)}</span>'

    # --- marking and opening -----------------------------------------------------------------------------

    def mark(self, status: ReviewStatus | None) -> None:
        if (claim := self.current_claim()) is not None:
            self.reviewRequested.emit(claim_key(claim.index), status, self.note.text())

    def _save_note(self) -> None:
        claim, report = self.current_claim(), self.report
        if claim is not None and report is not None:
            mark = claim_mark(report, claim.index)
            self.reviewRequested.emit(claim_key(claim.index), mark.status if mark else "to_check", self.note.text())
            self.claims.setFocus()

    def copy_claim(self) -> None:
        """The claim in quotation marks with the places of its sources (Ctrl+C in the list)."""
        claim, report = self.current_claim(), self.report
        if claim is None or report is None:
            return
        by_n = {c.n: c for c in report.citations}
        places = [place(c.doc, c.page, c.section) for s in claim.sources if (c := by_n.get(s.n))]
        QGuiApplication.clipboard().setText(cited(claim.text, places))

    def open_source(self, step: int) -> None:
        """The claim's next (``step`` 1) or previous (-1) source in the viewer; 0: the first."""
        claim, report = self.current_claim(), self.report
        if claim is None or report is None or not claim.sources:
            return
        self._source = 0 if step == 0 or self._source < 0 else (self._source + step) % len(claim.sources)
        by_n = {c.n: c for c in report.citations}
        if (c := by_n.get(claim.sources[self._source].n)) is not None:
            self.citationActivated.emit(c)

    def _open_link(self, url: QUrl) -> None:
        scheme, _, n = url.toString().partition(":")
        if scheme == "cite" and n.isdigit() and self.report:
            if (c := next((c for c in self.report.citations if c.n == int(n)), None)) is not None:
                self.citationActivated.emit(c)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.detail.viewport() and event.type() == QEvent.Type.Resize and self._previews:
            self._redraw()
            return False
        if watched is self.claims and event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if event.matches(QKeySequence.StandardKey.Copy):
                self.copy_claim()
                return True
            if event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier:
                return False
            if key in _KEYS:
                self.mark(_KEYS[key])
            elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.mark(None)
            elif key == Qt.Key.Key_N:
                self.note.setFocus()
            elif key in (Qt.Key.Key_BracketRight, Qt.Key.Key_BracketLeft, Qt.Key.Key_Return, Qt.Key.Key_Enter):
                self.open_source({Qt.Key.Key_BracketRight: 1, Qt.Key.Key_BracketLeft: -1}.get(key, 0))
            else:
                return False
            return True
        return super().eventFilter(watched, event)
