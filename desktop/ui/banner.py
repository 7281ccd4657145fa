"""A message across the top of the window's work area: an error or a warning the user should read
without a modal box stopping them (Zotero and Acrobat say such things in a bar, not a dialog). It
stays until closed or replaced, and its text can be selected and copied."""

from __future__ import annotations

from typing import Literal

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QToolButton, QWidget

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
        self.close_button.clicked.connect(self.hide)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 4, 6)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.close_button, 0, Qt.AlignmentFlag.AlignTop)
        self.kind: Kind = "warning"
        self.hide()

    def say(self, text: str, kind: Kind = "error") -> None:
        self.kind = kind
        self.setStyleSheet(f"Banner {{ {STYLES[kind]} }} QLabel {{ border: none; background: transparent; }}")
        self.label.setText(text)
        self.show()

    def text(self) -> str:
        return self.label.text()
