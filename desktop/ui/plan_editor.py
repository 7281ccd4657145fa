"""The research plan as a Qt item model and its editor: add, edit, remove, reorder, re-plan with
feedback, approve. Every change goes to the engine (through the bridge); the engine's state is the
truth the model shows."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QListView,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from desktop.bridge.views import PlanView, TodoView
from desktop.ui.estimate_label import EstimateLabel
from desktop.ui.icons import icon

Index = QModelIndex | QPersistentModelIndex


class PlanModel(QAbstractListModel):
    """The plan's to-dos; Qt.EditRole edits a task's text (the view asks the engine to do it)."""

    TodoRole = Qt.ItemDataRole.UserRole + 1
    editRequested = Signal(int, str)  # todo id, new task text

    def __init__(self) -> None:
        super().__init__()
        self.items: list[TodoView] = []

    def set_plan(self, plan: PlanView | None) -> None:
        self.beginResetModel()
        self.items = list(plan.items) if plan else []
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 - Qt's signature
        return 0 if parent.isValid() else len(self.items)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        todo = self.items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole,):
            context = f"\n   {todo.context}" if todo.context else ""  # what the task is to look for, shown
            subtasks = "".join(f"\n   – {s}" for s in todo.subtasks)
            mark = {"done": "✓ ", "skipped": "⤼ ", "running": "▶ "}.get(todo.status, "")
            # numbered by place (0 the question), not by id: after a removal the ids had a gap (0, 1, 2, 4)
            return f"{mark}{index.row()}. {todo.task}{context}{subtasks}"
        if role == Qt.ItemDataRole.EditRole:
            return todo.task
        if role == Qt.ItemDataRole.ToolTipRole:
            return todo.context or None
        if role == self.TodoRole:
            return todo
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = super().flags(index)
        return base | Qt.ItemFlag.ItemIsEditable if index.isValid() else base

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:  # noqa: N802
        if role != Qt.ItemDataRole.EditRole or not index.isValid() or not str(value).strip():
            return False
        self.editRequested.emit(self.items[index.row()].id, str(value).strip())
        return False  # shown once the engine has accepted it


class PlanEditor(QWidget):
    """The plan with its commands; ``approve``, ``replan``, ``add``, ``remove``, ``move`` and ``edit``
    are emitted for the window to send to the engine."""

    addRequested = Signal(str)
    removeRequested = Signal(int)
    moveRequested = Signal(int, int)  # todo id, new position
    editRequested = Signal(int, str)
    replanRequested = Signal(str)
    approveRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = PlanModel()
        self.model.editRequested.connect(self.editRequested)
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.note.setStyleSheet("color: #b45309;")
        self.view = QListView()
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setAlternatingRowColors(True)
        self.new_task = QLineEdit()
        self.new_task.setPlaceholderText(self.tr("New task…"))
        self.new_task.returnPressed.connect(self._add)
        buttons = QHBoxLayout()
        self.edit_buttons: list[QPushButton] = []
        for meaning, text, slot in (("add", self.tr("Add"), self._add), ("remove", self.tr("Remove"), self._remove),
                                    ("up", self.tr("Up"), lambda: self._move(-1)),
                                    ("down", self.tr("Down"), lambda: self._move(1)),
                                    ("replan", self.tr("Re-plan…"), self._replan)):
            button = QPushButton(icon(meaning), text)
            if meaning in ("up", "down"):  # arrows say it: their words made the plan the window's widest pane
                button.setText("")
                button.setToolTip(text)
                button.setAccessibleName(text)
            button.clicked.connect(slot)
            buttons.addWidget(button)
            self.edit_buttons.append(button)
        self.estimate = EstimateLabel()
        self.approve = QPushButton(icon("approve"), self.tr("Approve plan and start research"))
        self.approve.setDefault(True)
        self.approve.clicked.connect(self.approveRequested)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Research plan — edit it, then approve. Task 0 is your question."), wordWrap=True))
        layout.addWidget(self.note)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.new_task)
        layout.addLayout(buttons)
        layout.addWidget(self.estimate)
        layout.addWidget(self.approve)

    def set_plan(self, plan: PlanView | None, editable: bool) -> None:
        selected = self._selected()
        self.model.set_plan(plan)
        note = self._note(plan)
        self.note.setText(note)
        self.note.setVisible(bool(note))
        for w in (self.new_task, self.approve, *self.edit_buttons):  # a plan no longer waiting is a record
            w.setEnabled(editable)
        self.view.setEditTriggers(QListView.EditTrigger.DoubleClicked if editable else QListView.EditTrigger.NoEditTriggers)
        if selected is not None:
            row = next((i for i, t in enumerate(self.model.items) if t.id == selected.id), None)
            if row is not None:
                self.view.setCurrentIndex(self.model.index(row))

    def _note(self, plan: PlanView | None) -> str:
        """Why the knowledge base may not answer, or why the plan is only the question itself."""
        if plan is None:
            return ""
        if plan.note:
            return plan.note
        if len(plan.items) == 1:
            return self.tr("The plan is only your question (task 0): the model proposed no further tasks. Add "
                           "tasks for aspects to look into, re-plan with a hint, or approve to research the "
                           "question as it stands.")
        return ""

    def _selected(self) -> TodoView | None:
        index = self.view.currentIndex()
        return self.model.data(index, PlanModel.TodoRole) if index.isValid() else None

    def _add(self) -> None:
        if self.new_task.text().strip():
            self.addRequested.emit(self.new_task.text().strip())
            self.new_task.clear()

    def _remove(self) -> None:
        todo = self._selected()
        if todo is not None:
            self.removeRequested.emit(todo.id)

    def _move(self, step: int) -> None:
        todo = self._selected()
        if todo is None:
            return
        row = self.model.items.index(todo)
        self.moveRequested.emit(todo.id, max(1, row + step))

    def _replan(self) -> None:
        feedback, ok = QInputDialog.getMultiLineText(self, self.tr("Re-plan"),
                                                     self.tr("What should the new plan do differently?"))
        if ok and feedback.strip():
            self.replanRequested.emit(feedback.strip())
