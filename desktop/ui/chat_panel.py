"""Clarification as a chat: the question, then per round its queries, what was retrieved (new and
already seen, each chunk expandable), coverage and gaps, and the questions with round i/N; the user
answers or ends clarification."""

from __future__ import annotations

import html
from collections.abc import Callable

from PySide6.QtCore import QLocale, Qt, Signal
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QProgressBar,
    QPushButton,
    QSplitter,
    QTextBrowser,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.bridge.views import RoundView, RunView
from desktop.ui.icons import icon

SEND_KEY = QKeySequence("Ctrl+Return")


class ChatPanel(QWidget):
    startRequested = Signal(str)  # a new question
    answerSubmitted = Signal(str, bool)  # the answer, and whether it ends clarification
    chunkOpened = Signal(object)  # ChunkView: show its page in the PDF viewer

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.message_of: Callable[[RunView], str | None] = lambda state: state.message  # the window words it
        self.transcript = QTextBrowser()
        self.transcript.setOpenLinks(False)
        self.chunks = QTreeWidget()
        self.chunks.setHeaderLabels([self.tr("Retrieved"), self.tr("Document"), self.tr("Page")])
        self.chunks.setColumnWidth(0, 360)
        self.coverage = QProgressBar()
        self.coverage.setFormat(self.tr("coverage %p%"))
        # as wide as its longest text ("Abdeckung 100 %"): the style's default cut it to "Abdeckung 4"
        longest = self.coverage.format().replace("%p", "100")
        self.coverage.setMinimumWidth(self.coverage.fontMetrics().horizontalAdvance(longest) + 24)
        self.round_label = QLabel()
        self.input = QPlainTextEdit()
        self.input.setPlaceholderText(self.tr("Ask a research question…"))
        self.input.setMaximumHeight(110)
        self.send = QPushButton(icon("send"), self.tr("Start research"))
        # the shortcut as this platform writes it, in the window's language (Qt translates key names)
        self._send_key = SEND_KEY.toString(QKeySequence.SequenceFormat.NativeText)
        self.send.setToolTip(self._send_key)
        self.send.clicked.connect(self._send)
        self.end = QPushButton(icon("end"), self.tr("End clarification"))
        self.end.setToolTip(self.tr("Go on to the plan; what you typed still counts"))
        self.end.clicked.connect(lambda: self._send(end=True))
        QShortcut(SEND_KEY, self, activated=self._send)
        self.chunks.setWordWrap(True)  # an expanded passage is read whole, not cut at the column's edge
        self.chunks.setToolTip(self.tr("Double-click a passage to open its page"))
        self.chunks.itemDoubleClicked.connect(self._open_chunk)
        split = QSplitter(Qt.Orientation.Vertical, objectName="chat-split")  # named: its sizes are remembered
        split.addWidget(self.transcript)
        split.addWidget(self.chunks)
        split.setSizes([420, 160])
        status = QHBoxLayout()
        status.addWidget(self.round_label, 1)
        status.addWidget(self.coverage)
        # why a question cannot start now (no LLM answers), above the button it disables
        self.blocked = QLabel(wordWrap=True)
        self.blocked.hide()
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.end)
        buttons.addWidget(self.send)
        layout = QVBoxLayout(self)
        layout.addWidget(split, 1)
        layout.addLayout(status)
        layout.addWidget(self.input)
        layout.addWidget(self.blocked)  # a row of its own: beside the buttons it wrapped into four lines
        layout.addLayout(buttons)
        self.state: RunView | None = None
        self._busy = False
        self.llm_block: str | None = None  # why no question can start now: the LLM does not answer
        self.show_state(None)

    # --- input ----------------------------------------------------------------------------------

    def _send(self, end: bool = False) -> None:
        text = self.input.toPlainText().strip()
        waiting = self.state is not None and self.state.waiting_for == "answer"
        if waiting:
            if text or end:
                self.answerSubmitted.emit(text, end)
                self.input.clear()
        elif text and self._may_start():
            self.startRequested.emit(text)
            self.input.clear()

    def _waiting(self) -> bool:
        return self.state is not None and self.state.waiting_for == "answer"

    def _may_start(self) -> bool:
        return not self._busy and self.llm_block is None and (self.state is None or self.state.finished)

    def set_busy(self, busy: bool) -> None:
        self._busy = busy
        self._update_buttons()

    def set_llm_block(self, reason: str | None) -> None:
        """``reason``: why no question can start (the LLM server does not answer), None once it does."""
        self.llm_block = reason
        self.blocked.setText(reason or "")
        self.blocked.setVisible(reason is not None)
        self._update_buttons()

    def _update_buttons(self) -> None:
        waiting = self._waiting()
        self.send.setEnabled(not self._busy and (waiting or self.llm_block is None)
                             and (waiting or self.state is None or self.state.status != "waiting"))
        self.send.setToolTip(self._send_key if waiting or self.llm_block is None else self.llm_block)
        self.end.setEnabled(not self._busy and waiting)

    # --- display --------------------------------------------------------------------------------

    def show_state(self, state: RunView | None) -> None:
        self.state = state
        waiting = state is not None and state.waiting_for == "answer"
        self.send.setText(self.tr("Send answer") if waiting else self.tr("Start research"))
        self.input.setPlaceholderText(self.tr("Your answer… ({key})").format(key=self._send_key) if waiting
                                      else self.tr("Ask a research question…"))
        self.input.viewport().update()  # an empty, focused QPlainTextEdit kept drawing the old placeholder
        if state is None or waiting or state.finished:
            # the run waits for the user (or is over): the command that got it there is done, even if its
            # "not busy" is still on its way — a click on End clarification right then was dropped
            self._busy = False
        self._update_buttons()
        self.transcript.setHtml(self._html(state))
        self.transcript.verticalScrollBar().setValue(self.transcript.verticalScrollBar().maximum())
        self._fill_chunks(state)
        rnd = state.current_round if state else None
        if rnd and rnd.coverage is not None:
            self.coverage.setValue(round(100 * rnd.coverage))
            self.round_label.setText(self.tr("{round} · {new}, {seen} · {gaps}").format(
                round=self._round(rnd.index, state.max_rounds), new=self._new_chunks(len(rnd.new_chunks)),
                seen=self._seen(rnd.duplicates), gaps=self.tr("%n gap(s)", "", len(rnd.gaps))))
        else:
            self.coverage.setValue(0)
            self.round_label.setText("")

    # --- texts --------------------------------------------------------------------------------------

    def _round(self, index: int, rounds: int) -> str:
        return self.tr("Round {0}/{1}").format(index, rounds)

    def _new_chunks(self, n: int) -> str:
        return self.tr("%Ln new chunk(s)", "", n)

    def _seen(self, n: int) -> str:
        return self.tr("%Ln seen before", "", n)

    def _percent(self, share: float) -> str:
        """A share as a percentage in the window's language ("46%", German "46 %")."""
        return self.tr("{0}%", "a percentage").format(QLocale().toString(round(100 * share)))

    def _html(self, state: RunView | None) -> str:
        if state is None:
            return "<p>" + html.escape(self.tr(
                "Choose a knowledge base on the left, then ask your question below. Rabbithole searches the "
                "documents, asks what it needs to know, proposes a plan you can edit, and writes a report "
                "whose every claim cites document and page.")) + "</p>"
        you = html.escape(self.tr("You:"))
        parts = [f"<p><b>{you}</b> {html.escape(state.question)}</p>"]
        for rnd in state.rounds:
            parts.append(self._round_html(rnd, state.max_rounds))
        if state.refined_question:
            refined = html.escape(self.tr("Refined question:"))
            parts.append(f"<p><b>{refined}</b> {html.escape(state.refined_question)}</p>")
        message = self.message_of(state)
        if message:
            parts.append(f"<p><i>{html.escape(message)}</i></p>")
        return "".join(parts)

    def _round_html(self, rnd: RoundView, max_rounds: int) -> str:
        title = html.escape(self._round(rnd.index, max_rounds))
        out = [f"<hr><p><b>{title}</b> — "
               + html.escape(self.tr("searched: ")) + " · ".join(html.escape(q) for q in rnd.queries) + "</p>"]
        if rnd.coverage is not None:
            out.append("<p>" + html.escape(self.tr("{new}, {seen}; coverage {coverage}").format(
                new=self._new_chunks(len(rnd.new_chunks)), seen=self._seen(rnd.duplicates),
                coverage=self._percent(rnd.coverage))) + "</p>")
            if rnd.gaps:
                out.append("<p>" + html.escape(self.tr("Gaps:")) + "</p><ul>"
                           + "".join(f"<li>{html.escape(g)}</li>" for g in rnd.gaps) + "</ul>")
        if rnd.questions:
            out.append("<ol>" + "".join(f"<li><b>{html.escape(q)}</b></li>" for q in rnd.questions) + "</ol>")
        if rnd.suggest_end:
            out.append("<p><i>" + html.escape(self.tr(
                "The question looks well covered: end clarification to go on, or answer to refine it.")) + "</i></p>")
        if rnd.answer:
            you = html.escape(self.tr("You:"))
            out.append(f"<p><b>{you}</b> {html.escape(rnd.answer)}</p>")
        return "".join(out)

    def _open_chunk(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        chunk = item.data(0, Qt.ItemDataRole.UserRole)
        if chunk is not None:
            self.chunkOpened.emit(chunk)

    def _fill_chunks(self, state: RunView | None) -> None:
        self.chunks.clear()
        if state is None:
            return
        for rnd in state.rounds:
            top = QTreeWidgetItem([self.tr("Round {round}: {new}, {seen}").format(
                round=rnd.index, new=self.tr("%Ln new", "", len(rnd.new_chunks)), seen=self._seen(rnd.duplicates)),
                "", ""])
            for c in rnd.new_chunks:
                item = QTreeWidgetItem([" ".join(c.text.split())[:160], c.doc, str(c.page)])
                item.setToolTip(0, c.text[:1500])
                item.setData(0, Qt.ItemDataRole.UserRole, c)
                whole = QTreeWidgetItem([" ".join(c.text.split()), "", ""])
                whole.setData(0, Qt.ItemDataRole.UserRole, c)
                item.addChild(whole)
                top.addChild(item)
            self.chunks.addTopLevelItem(top)
        if self.chunks.topLevelItemCount():
            self.chunks.topLevelItem(self.chunks.topLevelItemCount() - 1).setExpanded(True)
