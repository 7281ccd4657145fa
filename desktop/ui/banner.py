"""A message across the top of the window's work area: an error or a warning the user should read
without a modal box stopping them (Zotero and Acrobat say such things in a bar, not a dialog). It
stays until closed or replaced, and its text can be selected and copied."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QToolButton, QWidget

from desktop.ui.icons import icon

Kind = Literal["error", "warning"]
STYLES: dict[str, str] = {
    "error": "background: #fee2e2; color: #7f1d1d; border: 1px solid #fca5a5; border-radius: 4px;",
    "warning": "background: #fef3c7; color: #78350f; border: 1px solid #fcd34d; border-radius: 4px;",
}


class Banner(QFrame):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.label = QLabel(wordWrap=True)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # messages quote file names and server errors
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.close_button = QToolButton(autoRaise=True)
        self.close_button.setIcon(icon("cancel"))
        self.close_button.setToolTip(self.tr("Dismiss"))
        self.close_button.clicked.connect(self.clear)
        self.action_button = QPushButton()  # what fixes the cause in place (Resume), when there is one
        self.action_button.hide()
        self.action_button.clicked.connect(self._act)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 4, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.action_button, 0, Qt.AlignmentFlag.AlignVCenter)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.kind: Kind = "warning"
        self.owner: str | None = None  # the run whose state the message is about; None: the window's own
        self._action: Callable[[], None] | None = None
        self.hide()

    def say(self, text: str, kind: Kind = "error", *, owner: str | None = None,
            action: tuple[str, Callable[[], None]] | None = None) -> None:
        self.kind, self.owner = kind, owner
        self.setStyleSheet(f"Banner {{ {STYLES[kind]} }} QLabel {{ border: none; background: transparent; }}")
        self.label.setText(text)
        self._action = action[1] if action else None
        self.action_button.setText(action[0] if action else "")
        self.action_button.setVisible(action is not None)
        self.show()

    def clear(self) -> None:
        self.owner, self._action = None, None
        self.action_button.hide()
        self.hide()

    def _act(self) -> None:
        action = self._action
        self.clear()
        if action is not None:
            action()

    def text(self) -> str:
        return self.label.text()
