"""Live progress of a run: the phase stepper, the tasks with their states, the event log, tokens and
elapsed time, and the commands skip task, cancel and resume."""

from __future__ import annotations

import time

from PySide6.QtCore import QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from desktop.engine import events as ev
from desktop.engine.narrate import describe
from desktop.engine.state import RunState
from desktop.ui.estimate_label import EstimateLabel

STOP_KEY = "Ctrl+."  # the window's "Stop run" shortcut
PHASES = ("clarify", "plan", "research", "drift", "synthesis", "report")
_MAX_LOG_LINES = 2000


class PhaseStepper(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        names = {"clarify": self.tr("Clarify"), "plan": self.tr("Plan"), "research": self.tr("Research"),
                 "drift": self.tr("Filter"), "synthesis": self.tr("Synthesis"), "report": self.tr("Report")}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.labels = {}
        for i, phase in enumerate(PHASES):
            label = QLabel(f"{i + 1}. {names[phase]}")
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            self.labels[phase] = label
            layout.addWidget(label, 1)
        self.set_phase(None, done=False)

    def set_phase(self, phase: str | None, done: bool) -> None:
        reached = PHASES.index(phase) if phase in PHASES else -1
        for i, (name, label) in enumerate(self.labels.items()):
            if i < reached or (done and i == reached):
                style = "color: #15803d;"
            elif i == reached:
                style = "font-weight: bold; border-bottom: 2px solid #2563eb;"
            else:
                style = "color: gray;"
            label.setStyleSheet(style)


class ProgressPanel(QWidget):
    skipRequested = Signal(int)
    cancelRequested = Signal()
    resumeRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.stepper = PhaseStepper()
        self.tasks = QListWidget()
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(_MAX_LOG_LINES)
        self.stats = QLabel()
        self.skip = QPushButton(self.tr("Skip task"))
        self.skip.clicked.connect(self._skip)
        self.cancel = QPushButton(self.tr("Stop"))
        self.cancel.setToolTip(self.tr("Stop the run; it can be resumed later ({0})").format(
            QKeySequence(STOP_KEY).toString(QKeySequence.SequenceFormat.NativeText)))
        self.cancel.clicked.connect(self.cancelRequested)
        self.resume = QPushButton(self.tr("Resume"))
        self.resume.clicked.connect(self.resumeRequested)
        self.draft = QPlainTextEdit()  # the synthesis as it is written
        self.draft.setReadOnly(True)
        self.draft.setPlaceholderText(self.tr("The answer appears here while it is written."))
        right = QSplitter(Qt.Orientation.Vertical)
        right.addWidget(self.log)
        right.addWidget(self.draft)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.tasks)
        split.addWidget(right)
        split.setSizes([300, 500])
        self.estimate = EstimateLabel()
        buttons = QHBoxLayout()
        buttons.addWidget(self.stats)
        buttons.addWidget(self.estimate, 1)
        for b in (self.skip, self.cancel, self.resume):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stepper)
        layout.addWidget(split, 1)
        layout.addLayout(buttons)
        self.state: RunState | None = None
        self.started: float | None = None
        self.tokens = 0
        self._draft_attempt = 0
        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._tick)
        self.show_state(None)

    def reset(self) -> None:
        """A new run: clear the log, the draft and the clock."""
        self.log.clear()
        self.draft.clear()
        self.estimate.show_estimate(None)
        self.started = None
        self.tokens = 0
        self._draft_attempt = 0

    def add_draft(self, text: str, attempt: int) -> None:
        if attempt != self._draft_attempt:  # a redone answer replaces the first
            self.draft.clear()
            self._draft_attempt = attempt
        cursor = self.draft.textCursor()
        cursor.movePosition(cursor.MoveOperation.End)
        cursor.insertText(text)

    def _skip(self) -> None:
        item = self.tasks.currentItem()
        if item is not None:
            self.skipRequested.emit(int(item.data(Qt.ItemDataRole.UserRole)))

    def show_state(self, state: RunState | None) -> None:
        self.state = state
        running = state is not None and state.status == "running"
        self.stepper.set_phase(state.phase if state else None, done=bool(state and state.status == "done"))
        self.skip.setEnabled(running and state.phase == "research")
        self.cancel.setEnabled(running)
        self.resume.setEnabled(state is not None and state.status in ("cancelled", "failed", "stopped"))
        if state is not None:
            self.tokens = state.usage.total_tokens
        self._fill_tasks(state)
        self._tick()
        if running and not self.clock.isActive():
            self.started = self.started or time.monotonic()
            self.clock.start()
        elif not running:
            self.clock.stop()

    def _fill_tasks(self, state: RunState | None) -> None:
        current = self.tasks.currentRow()
        self.tasks.clear()
        if state is None or state.plan is None:
            return
        runs = {t.task_id: t for t in state.later.research.tasks}
        marks = {"pending": "○", "running": "▶", "done": "✓", "skipped": "⤼"}
        for todo in state.plan.items:
            run = runs.get(todo.id)
            status = run.status if run else todo.status
            extra = " — " + self.tr("{read}, {references}").format(
                read=self.tr("%Ln read", "", run.extracted),
                references=self.tr("%Ln reference(s)", "", run.followed)) if run and run.extracted else ""
            item = QListWidgetItem(f"{marks.get(status, '○')} {todo.id}. {todo.task}{extra}")
            item.setData(Qt.ItemDataRole.UserRole, todo.id)
            self.tasks.addItem(item)
        if 0 <= current < self.tasks.count():
            self.tasks.setCurrentRow(current)

    def _tick(self) -> None:
        elapsed = time.monotonic() - self.started if self.started else 0.0
        self.stats.setText(self.tr("%Ln token(s) · {0} s", "", self.tokens).format(QLocale().toString(round(elapsed))))

    def add_event(self, event: ev.Event) -> None:
        if isinstance(event, ev.TokenUsage):
            self.tokens = event.total.total_tokens
            self._tick()
        if isinstance(event, ev.PhaseStarted):
            self.started = self.started or time.monotonic()
            self.stepper.set_phase(event.phase, done=False)
        if isinstance(event, ev.EstimateReady):
            self.estimate.show_estimate(event)
        line = describe(event)
        if line and not isinstance(event, ev.TokenUsage):
            self.log.appendPlainText(f"{event.at.astimezone().strftime('%H:%M:%S')}  {line}")
