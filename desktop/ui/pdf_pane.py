"""The PDF viewer in the window's dock: what opens a page in it — a citation with its quote, a retrieved
passage, a document — fetching a team server's PDF first where this workstation has none, and the
viewer in a window of its own."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QDockWidget

from desktop.bridge.bridge import EngineBridge
from desktop.bridge.kb_views import DocumentView
from desktop.bridge.views import ChunkView
from desktop.report.model import Citation
from desktop.ui.kb_panel import KnowledgeBasePanel
from desktop.ui.pdf_viewer import PdfViewer


class PdfPane(QObject):
    error = Signal(str)  # a message for the window's banner

    def __init__(self, viewer: PdfViewer, dock: QDockWidget, bridge: EngineBridge, kb: KnowledgeBasePanel) -> None:
        super().__init__(dock)
        self.viewer, self.dock, self.bridge, self.kb = viewer, dock, bridge, kb
        viewer.detachRequested.connect(self.detach)

    def open_citation(self, citation: Citation) -> None:
        note = None if citation.quote_verified else self.tr(
            "The quote of source [{n}] was not found in the document, so nothing is highlighted: read the page "
            "to check what the answer says.").format(n=citation.n)
        self._show(citation.doc_id, Path(citation.path),
                   lambda path: self.viewer.open(path, citation.page, citation.rects, citation.quote, note))

    def open_chunk(self, chunk: ChunkView) -> None:
        doc = next((d for d in self.kb.model.docs if d.doc_id == chunk.doc_id), None)
        if doc is None:
            self.error.emit(self.tr("“{doc}” is not in the knowledge base shown; choose its knowledge base to open "
                                    "it.").format(doc=chunk.doc))
            return
        # the passage marked on its page, as a citation's quote is
        self._show(doc.doc_id, Path(doc.path), lambda path: self.viewer.open(path, chunk.page, quote=chunk.text))

    def open_document(self, doc: DocumentView | None) -> None:
        if doc is not None:
            self._show(doc.doc_id, Path(doc.path), lambda path: self.viewer.open(path, 1))

    def detach(self) -> None:
        """The viewer in a window of its own, maximised (another screen, or the whole one); again: docked."""
        dock = self.dock
        if dock.isFloating():
            dock.setFloating(False)
            return
        dock.show()
        dock.setFloating(True)
        if screen := dock.screen():  # the size set too: without a window manager maximising does nothing
            dock.setGeometry(screen.availableGeometry())
        dock.showMaximized()

    def _show(self, doc_id: str, path: Path, show: Callable[[Path], None]) -> None:
        """Show a PDF in the viewer; one of the team server's that this workstation has not opened yet is
        fetched first, in the background (the viewer says why when that fails)."""
        self.dock.show()
        if path.is_file() or not self.bridge.on_server or not self.kb.database:
            show(path)
            return
        self.bridge.fetch_pdf(self.kb.database, doc_id, show)
