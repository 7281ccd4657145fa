"""What a main window hands to the one that replaces it (View → Language builds the window anew on the
same bridge): the shown run, the research log and draft, the database, the open PDF and page, the last
ingestion report, what is still running, and the layout."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from PySide6.QtCore import QByteArray

from desktop.bridge.kb_views import IngestReportView
from desktop.bridge.views import LogLine, RunView
from desktop.ui.main_window import MainWindow


@dataclass
class Carried:
    state: RunView | None
    log: list[LogLine]
    draft: str
    database: str | None
    pdf: tuple[Path, int] | None  # file and page
    ingest_report: IngestReportView | None
    busy: set[str] = field(default_factory=set)
    geometry: QByteArray = field(default_factory=QByteArray)
    layout: QByteArray = field(default_factory=QByteArray)


def carry(window: MainWindow) -> Carried:
    path = window.viewer.path
    return Carried(
        state=window.state, log=list(window.progress.lines), draft=window.progress.draft.toPlainText(),
        database=window.kb.database, pdf=(path, window.viewer.current_page()) if path else None,
        ingest_report=window.kb.last_report,
        busy=set(window.busy_now), geometry=window.saveGeometry(), layout=window.saveState())


def take_over(window: MainWindow, carried: Carried) -> None:
    """Show in ``window`` what the window it replaces showed, and go on where that one was."""
    window.restoreGeometry(carried.geometry)
    window.restoreState(carried.layout)
    if carried.database:
        window.kb.set_databases(window.bridge.databases(), select=carried.database)
    if carried.state is not None:
        window.show_run(carried.state)
    for line in carried.log:  # worded again, in the new window's language
        window.progress.add_line(line)
    window.progress.draft.setPlainText(carried.draft)
    if carried.ingest_report is not None:
        window.kb.show_summary(carried.ingest_report)
    for what in carried.busy:  # a running ingestion says so, instead of the last one's summary
        window.show_busy(what, True)
    if carried.pdf is not None:
        window.viewer.open(*carried.pdf)
