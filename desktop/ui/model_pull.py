"""Downloading a model to the Ollama server from the settings dialog: the Pull and Cancel buttons, a
progress bar summed over the model's layers, and a status line. The server and model are those typed
in the dialog (``typed_llm``), not the saved ones; the pull runs through the bridge, so nothing blocks.

Also the small status-line helpers the settings dialog's tools share."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QLabel, QProgressBar, QPushButton, QVBoxLayout, QWidget

from desktop.bridge.bridge import EngineBridge
from desktop.bridge.kb_views import PullView
from desktop.bridge.worker import Op
from desktop.settings import LlmSettings
from desktop.ui.settings_form import hbox

OK_COLOR, WARN_COLOR, ERROR_COLOR = "#1a7f37", "#9a6700", "#c62828"
GB = 1e9  # Ollama counts in decimal gigabytes


def say(label: QLabel, text: str, color: str | None = None) -> None:
    before = _lines(label)
    label.setStyleSheet(f"color: {color};" if color else "")
    label.setText(text)
    label.setVisible(bool(text))
    if _lines(label) != before:  # (a pull's progress says many things of one line: nothing to lay out)
        relayout(label.window())


def _lines(label: QLabel) -> int:
    """The height a shown label needs at its width; -1 when it is hidden."""
    return label.heightForWidth(label.width()) if label.isVisible() else -1


def relayout(root: QWidget) -> None:
    """Lay a window out afresh. When a word-wrapped line appears later in a scrolled settings page, Qt
    kept the nested forms' old row heights: the fields of the group above it were squeezed into each
    other (seen on the Knowledge base tab after "Check server")."""
    layouts = [w.layout() for w in (root, *root.findChildren(QWidget)) if w.layout() is not None]
    for layout in layouts:
        layout.invalidate()
    for layout in layouts:
        layout.activate()


def status_label() -> QLabel:
    # selectable: error messages get copied into bug reports and searches
    return QLabel(wordWrap=True, visible=False, textInteractionFlags=Qt.TextInteractionFlag.TextSelectableByMouse)


class ModelPull(QWidget):
    def __init__(self, bridge: EngineBridge, typed_llm: Callable[[QLabel], LlmSettings | None],
                 pulled: Callable[[], None], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._bridge = bridge
        self._typed_llm = typed_llm  # the LLM settings as typed, or None (said on the label given)
        self._pulled = pulled  # after a pull: the dialog lists the models again
        self._op: Op | None = None
        self._serial = 0  # progress of a cancelled pull can still be queued: match it to its pull
        self._layers: dict[str, tuple[int, int]] = {}
        self._ollama = True
        self.pull_button = QPushButton(self.tr("Pull model"), clicked=self.pull,
                                       toolTip=self.tr("Download the model named above to the Ollama server"))
        self.pull_cancel_button = QPushButton(self.tr("Cancel download"), clicked=self.cancel, enabled=False)
        self.pull_bar = QProgressBar(visible=False)
        self.pull_status = status_label()
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        for widget in (hbox(self.pull_button, self.pull_cancel_button), self.pull_bar, self.pull_status):
            column.addWidget(widget)

    def set_backend(self, ollama: bool) -> None:
        """Only Ollama can pull."""
        self._ollama = ollama
        self._set_pulling(self._op is not None)

    def pull(self) -> None:
        llm = self._typed_llm(self.pull_status)
        if llm is None:
            return
        self._serial += 1
        serial = self._serial
        self._layers.clear()
        self.pull_bar.setRange(0, 0)  # busy until the server names sizes
        self.pull_bar.setFormat(self.tr("%p%"))
        self.pull_bar.show()
        self._set_pulling(True)
        say(self.pull_status, self.tr("Pulling {model}…").format(model=llm.model))
        self._op = self._bridge.pull_model(
            llm.model, lambda step: self._on_progress(serial, step), lambda model: self._on_pulled(serial, model),
            lambda message: self._on_failed(serial, message), llm=llm)

    def cancel(self) -> None:
        if self._op is not None:
            self._op.cancel()
            self._end(self.tr("Download cancelled."), None)

    def stop(self) -> None:
        """The dialog closes: the pull stops (Ollama resumes it next time) and nothing of it is shown."""
        if self._op is not None:
            self._op.cancel()
        self._op = None
        self._serial += 1

    def _set_pulling(self, pulling: bool) -> None:
        self.pull_button.setEnabled(self._ollama and not pulling)
        self.pull_cancel_button.setEnabled(pulling)

    def _current(self, serial: int) -> bool:
        return serial == self._serial and self._op is not None

    def _on_progress(self, serial: int, step: PullView) -> None:
        if not self._current(serial):
            return
        say(self.pull_status, step.status)
        if step.total:  # Ollama reports each layer on its own: sum them
            self._layers[step.status] = (step.completed or 0, step.total)
        done = sum(c for c, _ in self._layers.values())
        total = sum(t for _, t in self._layers.values())
        if total:
            self.pull_bar.setRange(0, 1000)
            self.pull_bar.setValue(round(1000 * done / total))
            locale = QLocale()
            self.pull_bar.setFormat(self.tr("{percent}% · {done} / {total} GB").format(
                percent=locale.toString(100 * done // total), done=locale.toString(done / GB, "f", 2),
                total=locale.toString(total / GB, "f", 2)))

    def _end(self, text: str, color: str | None, finished: bool = False) -> None:
        self._op = None
        self._serial += 1  # whatever of this pull is still queued is stale now
        self._set_pulling(False)
        self.pull_bar.setRange(0, 1000)
        self.pull_bar.setValue(1000)
        self.pull_bar.setVisible(finished)
        say(self.pull_status, text, color)

    def _on_pulled(self, serial: int, model: str) -> None:
        if self._current(serial):
            self._end(self.tr("Pulled {model}; it is ready to use.").format(model=model), OK_COLOR, True)
            self._pulled()

    def _on_failed(self, serial: int, message: str) -> None:
        if self._current(serial):
            self._end(message, ERROR_COLOR)
