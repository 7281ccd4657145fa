"""The engine's estimate of how long the research takes on this LLM server, as one line: shown under the
plan before it is approved and beside the progress while the research runs."""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtWidgets import QLabel, QWidget

from desktop.bridge.views import EstimateView


class EstimateLabel(QLabel):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWordWrap(True)
        self.shown: EstimateView | None = None
        self.show_estimate(None)

    def show_estimate(self, event: EstimateView | None) -> None:
        self.shown = event
        self.setVisible(event is not None)
        if event is None:
            self.clear()
            return
        minutes = max(1, round(event.seconds / 60))
        locale = QLocale()
        text = self.tr("Research and report take about %n minute(s) on this LLM server", "", minutes) + " " + self.tr(
            "({calls} calls; it reads {read} and writes {write} tokens per second).").format(
            calls=locale.toString(event.llm_calls), read=locale.toString(round(event.read_tps)),
            write=locale.toString(round(event.write_tps)))
        if event.excerpts < event.excerpts_allowed:
            text += " " + self.tr("To stay within the time budget, {read} of up to {allowed} excerpts are read "
                                  "(Settings: Research, time budget).").format(
                read=locale.toString(event.excerpts), allowed=locale.toString(event.excerpts_allowed))
        self.setText(text)
        self.setToolTip(self.tr("Estimated from the speed the server showed so far; the number of findings and "
                                "followed references is not known in advance."))
