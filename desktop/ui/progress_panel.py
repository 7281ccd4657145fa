"""Live progress of a run: the phase stepper, the tasks with their states, the log (in the window's
language: each line is a template translated here, filled with the event's values), tokens and
elapsed time, and the commands skip task, cancel and resume."""

from __future__ import annotations

import functools
import time
from collections import deque

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

from desktop.bridge.views import LogLine, RunView, Value
from desktop.ui.estimate_label import EstimateLabel
from desktop.ui.icons import icon

STOP_KEY = "Ctrl+."  # the window's "Stop run" shortcut
PHASES = ("clarify", "plan", "research", "drift", "synthesis", "report")
_MAX_LOG_LINES = 2000
_now = time.monotonic  # the clock, replaceable in tests


class PhaseStepper(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.names = names = {"clarify": self.tr("Clarify"), "plan": self.tr("Plan"), "research": self.tr("Research"),
                 "drift": self.tr("Filter"), "synthesis": self.tr("Synthesis"), "report": self.tr("Report")}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.labels = {}
        for i, phase in enumerate(PHASES):
            label = QLabel(names[phase] + ("  ›" if i < len(PHASES) - 1 else ""))  # unnumbered: the tabs are
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
        self.tasks.setWordWrap(True)  # a task's title whole, not cut at the pane's edge
        self.log = QPlainTextEdit()
        self.log.setReadOnly(True)
        self.log.setMaximumBlockCount(_MAX_LOG_LINES)
        self.stats = QLabel()
        self.skip = QPushButton(icon("skip"), self.tr("Skip task"))
        self.skip.clicked.connect(self._skip)
        self.cancel = QPushButton(icon("stop"), self.tr("Stop"))
        self.cancel.setToolTip(self.tr("Stop the run; it can be resumed later ({0})").format(
            QKeySequence(STOP_KEY).toString(QKeySequence.SequenceFormat.NativeText)))
        self.cancel.clicked.connect(self.cancelRequested)
        self.resume = QPushButton(icon("resume"), self.tr("Resume"))
        self.resume.clicked.connect(self.resumeRequested)
        self.draft = QPlainTextEdit()  # the synthesis as it is written
        self.draft.setReadOnly(True)
        self.draft.setPlaceholderText(self.tr("The answer appears here while it is written."))
        right = QSplitter(Qt.Orientation.Vertical, objectName="progress-log-split")  # named: sizes are remembered
        right.addWidget(self.log)
        right.addWidget(self.draft)
        split = QSplitter(Qt.Orientation.Horizontal, objectName="progress-split")
        split.addWidget(self.tasks)
        split.addWidget(right)
        split.setSizes([300, 500])
        # the estimate on a row of its own, across the panel: between the counter and the buttons it was squeezed
        # into a column fifteen lines high at 1280x720
        self.estimate = EstimateLabel()
        buttons = QHBoxLayout()
        buttons.addWidget(self.stats)
        buttons.addStretch(1)
        for b in (self.skip, self.cancel, self.resume):
            buttons.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addWidget(self.stepper)
        layout.addWidget(split, 1)
        layout.addWidget(self.estimate)
        layout.addLayout(buttons)
        self.state: RunView | None = None
        self._worked = 0.0  # seconds the run worked before the current stretch
        self._since: float | None = None  # when the current stretch of work began; None while it waits
        self.tokens = 0
        self._draft_attempt = 0
        # what the log shows (no more than it keeps), to be worded again in another language
        self.lines: deque[LogLine] = deque(maxlen=_MAX_LOG_LINES)
        self.clock = QTimer(self)
        self.clock.setInterval(1000)
        self.clock.timeout.connect(self._tick)
        self.show_state(None)

    def reset(self) -> None:
        """A new run: clear the log, the draft and the clock."""
        self.log.clear()
        self.lines.clear()
        self.draft.clear()
        self.estimate.show_estimate(None)
        self._worked, self._since = 0.0, None
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

    def show_state(self, state: RunView | None) -> None:
        self.state = state
        running = state is not None and state.status == "running"
        self.stepper.set_phase(state.phase if state else None, done=bool(state and state.status == "done"))
        self.skip.setEnabled(running and state.phase == "research")
        self.cancel.setEnabled(running)
        self.resume.setEnabled(state is not None and state.resumable)
        if state is not None:
            self.tokens = state.tokens
        self._fill_tasks(state)
        if running:
            self._work()
        elif self._since is not None:  # waiting for the user (or stopped): their thinking time is not counted
            self._worked += _now() - self._since
            self._since = None
            self.clock.stop()
        self._tick()

    def _fill_tasks(self, state: RunView | None) -> None:
        current = self.tasks.currentRow()
        self.tasks.clear()
        if state is None or state.plan is None:
            return
        marks = {"pending": "○", "running": "▶", "done": "✓", "skipped": "⤼"}
        for number, todo in enumerate(state.plan.items):  # numbered by place, as the plan shows them
            extra = " — " + self.tr("{read}, {references}").format(
                read=self.tr("%Ln read", "", todo.read),
                references=self.tr("%Ln reference(s)", "", todo.references)) if todo.read else ""
            item = QListWidgetItem(f"{marks.get(todo.status, '○')} {number}. {todo.task}{extra}")
            item.setData(Qt.ItemDataRole.UserRole, todo.id)
            self.tasks.addItem(item)
        if 0 <= current < self.tasks.count():
            self.tasks.setCurrentRow(current)

    def _work(self) -> None:
        if self._since is None:
            self._since = _now()
            self.clock.start()

    def elapsed(self) -> float:
        """Seconds the run has worked while this panel watched, without the time it waited for the user."""
        return self._worked + (_now() - self._since if self._since is not None else 0.0)

    def _tick(self) -> None:
        elapsed = self.elapsed()
        self.stats.setText(self.tr("%Ln token(s) · {0} s", "", self.tokens).format(QLocale().toString(round(elapsed))))

    def set_tokens(self, total: int) -> None:
        self.tokens = total
        self._tick()

    def phase_started(self, phase: str) -> None:
        self._work()
        self.stepper.set_phase(phase, done=False)

    def add_line(self, line: LogLine) -> None:
        """The newest line in sight, unless the reader scrolled up to read an older one."""
        self.lines.append(line)
        bar = self.log.verticalScrollBar()
        following = bar.value() >= bar.maximum() - 2
        self.log.appendPlainText(f"{line.at.strftime('%H:%M:%S')}  {self.word(line)}")
        if following:
            bar.setValue(bar.maximum())

    def run_message(self, state: RunView) -> str | None:
        """What the run says about its state, in the window's language when it has a key."""
        return self.word(state.message_line) if state.message_line else state.message

    def word(self, line: LogLine) -> str:
        """The line in the window's language, without its time."""
        template = self._words.get(line.key)
        if template is None:  # a line this window version has no words for: its values, not nothing
            template = " ".join(f"{{{name}}}" for name in line.values)
        return template.format(**{name: self._value(name, value) for name, value in line.values.items()})

    @functools.cached_property  # a panel lives in one language: looked up once, not for every line
    def _words(self) -> dict[str, str]:
        return self._templates()

    def _templates(self) -> dict[str, str]:
        """The log's lines in the window's language, by the engine's narration keys."""
        return {
            "phase_started": self.tr("— {phase} —"),
            "queries_generated": self.tr("Round {round}, searched: {queries}"),
            "chunks_retrieved": self.tr("{new} new passages found ({duplicates} seen before)"),
            "coverage_updated": self.tr("Coverage {coverage}, {gaps} gap(s)"),
            "clarification_ended": self.tr("Clarification ended ({reason}); research queries: {queries}"),
            "task_started": self.tr("Task {task_id}: {task} ({chunks} passages to read)"),
            "finding_added": self.tr("  Finding {finding}, tier {tier}: {doc} p. {page}, {verified} of {quotes} "
                                     "quotes verified"),
            "reference_followed": self.tr("  Following “{reference}” → {doc} p. {page} (depth {depth})"),
            "task_done": self.tr("Task {task_id} {status}: {findings} finding(s)"),
            "drift_filtered": self.tr("Off-topic filter: {kept} kept, {filtered} set aside"),
            "quality_checked": self.tr("The model rates its answer {total}/400"),
            "quality_checked_revising": self.tr("The model rates its answer {total}/400 — revising once"),
            "quality_measured": self.tr("Quality: the measured figures only (the time budget leaves no room for "
                                        "the model's self-rating)"),
            "report_ready": self.tr("Report ready: {citations} citation(s)"),
            "evidence_report_ready": self.tr("Evidence report ready (the model wrote no usable answer): "
                                             "{citations} citation(s)"),
            "estimate_ready": self.tr("Estimate: research and report take about {duration} here ({calls} LLM "
                                      "calls; the server reads {read_tps} and writes {write_tps} tokens/s)"),
            "estimate_ready_budget": self.tr("Estimate: research and report take about {duration} here ({calls} "
                                             "LLM calls; the server reads {read_tps} and writes {write_tps} "
                                             "tokens/s; {excerpts} of up to {allowed} excerpts are read within "
                                             "the time budget)"),
            "request_failed": self.tr("LLM request failed ({purpose}): {error}"),
            "warning": self.tr("Warning: {message}"),
            "error": self.tr("Error: {message}"),
            "run_stopped": "{message}",
            **{key: self.tr("Warning: {0}").format(text) for key, text in self._warnings().items()},
            "run_cancelled": self.tr("Cancelled; resume to continue from here."),
            "run_done": self.tr("The report is ready."),
            "run_unknown_step": self.tr("Error: unknown step “{step}” (saved by another version?)"),
            "run_server_down": self.tr("Paused: {error}. Resume the run once the LLM server answers."),
            "run_failed": self.tr("Error: {error} — fix this and resume the run to continue from here."),
        }

    def _warnings(self) -> dict[str, str]:
        return {
            "warn_unchecked_answer": self.tr("{prompt}: the model's answer did not pass a check ({error}); it is used "
                                             "as it is"),
            "warn_no_usable_answer": self.tr("{prompt}: the model gave no usable answer ({error}); going on without "
                                             "it"),
            "warn_prompt_too_long": self.tr("{prompt}: {error}; going on without it"),
            "warn_plan_trimmed": self.tr("the model proposed {proposed} tasks; the first {kept} are kept"),
            "warn_plan_merged": self.tr("the model proposed {proposed} tasks, some of them the same, the question "
                                        "itself or without a subject of their own; {kept} distinct ones are kept"),
            "warn_plan_overruled": self.tr("the model called the question unanswerable, but excerpt [{excerpt}] "
                                           "concerns its subject ({terms}); the research goes ahead"),
            "warn_time_budget": self.tr("to keep to the time budget, the research reads {excerpts} of up to "
                                        "{allowed} excerpts, with no task summaries by the LLM, so that the run "
                                        "takes about {duration} on this LLM server (Settings: time budget; 0 reads "
                                        "all)"),
            "warn_vectors_missing": self.tr("“{database}” is still being embedded: {missing} of {total} passages "
                                            "have no vector yet, so the search finds them by their words only"),
            "warn_budget_spent": self.tr("time budget: {read} excerpts were read; the {left} gathered excerpts left "
                                         "are not read (Settings: time budget; 0 reads all)"),
            "warn_unhelpful": self.tr("task {task_id}: none of the {read} excerpts just read helped; its {skipped} "
                                      "lower-ranked search results are not read"),
            "warn_extract_failed": self.tr("no usable answer for {count} excerpts ({error}); they were skipped"),
            "warn_reference_cap": self.tr("stopped following references into {doc}: followed {times} times for task "
                                          "{task_id}"),
            "warn_drift": self.tr("{filtered} of {total} findings ({share}) drifted from the question and were set "
                                  "aside; check the plan or the clarification if the report misses something."),
            "warn_uncited": self.tr("synthesis: {count} statement(s) named no source and were left out"),
            "warn_left_out": self.tr("synthesis: {count} statement(s) left out of the answer ({reasons}); the "
                                     "findings they rest on stay in the report"),
            "warn_synthesis_failed": self.tr("synthesis: the model could not write a usable answer ({error}); the "
                                             "report lists the evidence instead"),
            "warn_answer_by_evidence": self.tr("synthesis: the model could not write a usable answer ({error}); the "
                                               "answer shows each of {tasks} tasks with the evidence Rabbithole chose "
                                               "for it"),
            "warn_revision_failed": self.tr("synthesis: the revision gave no usable answer ({error}); the first "
                                            "answer stands"),
            "warn_answer_by_parts": self.tr("time budget: the answer shows each of {parts} parts of the question "
                                            "with the evidence Rabbithole chose for it, not an answer written by the "
                                            "LLM, whose time went to reading (Settings: time budget; 0 has it "
                                            "written)"),
        }

    def _value(self, name: str, value: Value) -> str:
        """A value as this window writes it: numbers in its locale, words for the engine's codes."""
        locale = QLocale()
        if isinstance(value, tuple):
            return " | ".join(value)
        if isinstance(value, bool):
            return str(value)
        if name in ("coverage", "share") and isinstance(value, float):
            return self.tr("{0}%", "a percentage").format(locale.toString(round(100 * value)))
        if name == "duration" and isinstance(value, int | float):
            if value < 90:
                return self.tr("{0} s").format(locale.toString(round(value)))
            return self.tr("%n minute(s)", "", round(value / 60))
        if isinstance(value, int | float):
            return locale.toString(value)
        if name == "phase":
            return self.stepper.names.get(value, value)
        if name in ("reason", "status"):
            return self._codes().get(value, value.replace("_", " "))
        return value

    def _codes(self) -> dict[str, str]:
        return {"user_end": self.tr("ended by you"), "max_rounds": self.tr("the last round was reached"),
                "token_budget": self.tr("the token budget was reached"),
                "convergence": self.tr("nothing new was found"),
                "model_failed": self.tr("the model gave no usable answer"),
                "auto": self.tr("automatic"), "done": self.tr("done"), "skipped": self.tr("skipped"),
                "running": self.tr("running"), "pending": self.tr("pending")}
