"""What a main window hands to the one that replaces it (View → Language builds the window anew on the
same bridge): the shown run, the research log and draft, the database, the open PDF, page and highlight, the last
ingestion report, what is still running, and the layout."""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QByteArray

from desktop.bridge.kb_views import IngestReportView
from desktop.bridge.views import LogLine, RunView
from desktop.ui.main_window import MainWindow
from desktop.ui.pdf_places import Place
from desktop.ui.window_memory import place_of, put


@dataclass
class Carried:
    state: RunView | None
    log: list[LogLine]
    draft: str
    database: str | None
    pdf: Place | None  # file, page and highlight
    ingest_report: IngestReportView | None
    busy: set[str] = field(default_factory=set)
    place: list[int] = field(default_factory=list)  # window_memory.place_of
    layout: QByteArray = field(default_factory=QByteArray)
    zooms: dict[str, str | float] = field(default_factory=dict)  # the viewer's, per document


def carry(window: MainWindow) -> Carried:
    return Carried(
        state=window.state, log=list(window.progress.lines), draft=window.progress.draft.toPlainText(),
        database=window.kb.database, pdf=window.viewer.place,
        ingest_report=window.kb.last_report,
        busy=set(window.busy_now), place=place_of(window), layout=window.saveState(),
        zooms=dict(window.viewer.zooms))


def take_over(window: MainWindow, carried: Carried) -> None:
    """Show in ``window`` what the window it replaces showed, and go on where that one was."""
    if carried.place:
        put(window, carried.place)
    window.restoreState(carried.layout)
    window.default_docks = False
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
    window.viewer.zooms = dict(carried.zooms)
    if carried.pdf is not None:
        window.viewer.show_place(carried.pdf)
