"""Run history: every research run, to reopen or resume."""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QHeaderView,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from desktop.bridge.views import RunSummaryView
from desktop.ui.icons import icon


def local_time(iso: str) -> str:
    """A stored time (UTC, ISO 8601) as the clock on the wall shows it: "2026-11-22 11:30"."""
    try:
        return datetime.fromisoformat(iso).astimezone().strftime("%Y-%m-%d %H:%M")
    except ValueError:
        return iso[:16].replace("T", " ")

class RunHistoryDialog(QDialog):
    openRequested = Signal(str)
    resumeRequested = Signal(str)

    def __init__(self, runs: list[RunSummaryView], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Research history"))
        self.resize(900, 420)
        self.runs = runs
        self.table = QTableWidget(len(runs), 5)
        self.table.setHorizontalHeaderLabels([self.tr("Question"), self.tr("Knowledge base"), self.tr("Status"),
                                              self.tr("Phase"), self.tr("Last change")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        statuses = {"running": self.tr("Running"), "waiting": self.tr("Waiting for you"),
                    "paused": self.tr("Paused (LLM server)"), "cancelled": self.tr("Cancelled"),
                    "failed": self.tr("Failed"), "done": self.tr("Done")}
        phases = {"clarify": self.tr("Clarify"), "plan": self.tr("Plan"), "research": self.tr("Research"),
                  "drift": self.tr("Filter"), "synthesis": self.tr("Synthesis"), "report": self.tr("Report")}
        for row, r in enumerate(runs):
            shown = (r.question, r.database, statuses.get(r.status, r.status), phases.get(r.phase, r.phase),
                     local_time(r.updated_at))
            for col, text in enumerate(shown):
                item = QTableWidgetItem(text)
                item.setData(Qt.ItemDataRole.UserRole, r.run_id)
                self.table.setItem(row, col, item)
        self.table.doubleClicked.connect(self._open)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        open_button = QPushButton(icon("report"), self.tr("Open"))
        resume_button = QPushButton(icon("resume"), self.tr("Resume"))
        buttons.addButton(open_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(resume_button, QDialogButtonBox.ButtonRole.ActionRole)
        open_button.clicked.connect(self._open)
        resume_button.clicked.connect(self._resume)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addWidget(buttons)

    def _selected(self) -> str | None:
        item = self.table.item(self.table.currentRow(), 0)
        return item.data(Qt.ItemDataRole.UserRole) if item else None

    def _open(self) -> None:
        if run_id := self._selected():
            self.openRequested.emit(run_id)
            self.accept()

    def _resume(self) -> None:
        if run_id := self._selected():
            self.resumeRequested.emit(run_id)
            self.accept()
