"""The knowledge-base sidebar: databases (create, select, delete), their documents with status,
adding PDFs or a folder by dialog or drag and drop, ingestion progress with an estimate and cancel,
the per-file report, and tags."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QLocale, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from desktop.bridge.kb_views import DocumentView, IngestProgressView, IngestReportView
from desktop.ui.icons import icon
from desktop.ui.notice_texts import notice_text

Index = QModelIndex | QPersistentModelIndex


def duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    s = int(seconds + 0.5)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


def shown_name(d: DocumentView) -> str:
    """The file's name without ".pdf", and the short name the law gives itself where that says more
    ("StrlSchG", not "StrlSchG.pdf [StrlSchG]": the sidebar is narrow; the tooltip has path and title)."""
    stem = d.file_name[:-4] if d.file_name.lower().endswith(".pdf") else d.file_name
    return f"{stem} [{d.short_name}]" if d.short_name and d.short_name != stem else stem


_SHOWN = 40  # lines of an ingestion report the box shows; a longer one has the rest behind "Show Details"


class DocumentsModel(QAbstractTableModel):
    def __init__(self) -> None:
        super().__init__()
        self.docs: list[DocumentView] = []
        # the chunk count is in the tooltip: as a column it left the names two letters in the narrow sidebar
        self.headers = [self.tr("Document"), self.tr("Pages"), self.tr("Status")]

    def set_documents(self, docs: list[DocumentView]) -> None:
        self.beginResetModel()
        self.docs = list(docs)
        self.endResetModel()

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.docs)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802
        return 0 if parent.isValid() else len(self.headers)

    def headerData(self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole) -> Any:  # noqa: N802
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return self.headers[section]
        return None

    def status(self, d: DocumentView) -> str:
        if d.pending_embeddings:
            return self.tr("%Ln to embed", "", d.pending_embeddings)
        return self.tr("%n warning(s)", "", len(d.warnings)) if d.warnings else self.tr("ready")

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        d = self.docs[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            return [shown_name(d), d.pages, self.status(d)][index.column()]
        if role == Qt.ItemDataRole.ToolTipRole:
            lines = [d.title, d.path, self.tr("%Ln chunk(s)", "", d.chunks)] + ([", ".join(d.tags)] if d.tags else [])
            lines += [f"{k}: {v}" for k, v in d.meta.items()] + [notice_text(w) for w in d.warnings]
            return "\n".join(lines)
        if role == Qt.ItemDataRole.UserRole:
            return d
        return None


class KnowledgeBasePanel(QWidget):
    databaseSelected = Signal(str)
    createRequested = Signal(str)
    deleteRequested = Signal(str)
    ingestRequested = Signal(str, object)  # database, list[Path]
    cancelRequested = Signal()
    removeRequested = Signal(str, str)  # database, doc id
    metaRequested = Signal(str, str, str, str)  # database, doc id, key, value
    openRequested = Signal(object)  # DocumentView: open in the PDF viewer

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAcceptDrops(True)
        self.databases = QComboBox()
        self.databases.currentTextChanged.connect(self._selected)
        new_db, del_db = QPushButton(icon("database_add"), ""), QPushButton(icon("database_remove"), "")
        new_db.setToolTip(self.tr("New knowledge base"))
        del_db.setToolTip(self.tr("Delete this knowledge base (your PDFs are not touched)"))
        new_db.clicked.connect(self._create)
        del_db.clicked.connect(self._delete)
        self.model = DocumentsModel()
        self.table = QTableView()
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QTableView.SelectionBehavior.SelectRows)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)  # numbers and status stay narrow
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the document name gets the rest
        self.table.verticalHeader().hide()
        self.table.setTextElideMode(Qt.TextElideMode.ElideMiddle)  # "ULTA…2023_10K.pdf": both ends tell
        self.table.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.table.customContextMenuRequested.connect(self._menu)
        self.table.doubleClicked.connect(lambda i: self.openRequested.emit(self.model.data(i, Qt.ItemDataRole.UserRole)))
        add_files = QPushButton(icon("add_file"), self.tr("Add PDFs…"))
        add_folder = QPushButton(icon("add_folder"), self.tr("Add folder…"))
        add_files.clicked.connect(self.add_files)
        add_folder.clicked.connect(self.add_folder)
        self.progress = QProgressBar()
        self.progress_label = QLabel()
        self.progress_label.setWordWrap(True)
        self.cancel = QPushButton(icon("cancel"), self.tr("Cancel"))
        self.cancel.clicked.connect(self.cancelRequested)
        self.report_button = QPushButton(icon("report"), self.tr("Last ingestion report…"))
        self.report_button.clicked.connect(self._show_report)
        self.report_button.setEnabled(False)
        self.last_report: IngestReportView | None = None
        self.backlog = QLabel()  # chunks still to embed, by database: found by their words only until then
        self.backlog.setWordWrap(True)
        self.backlog.hide()
        top = QHBoxLayout()
        top.addWidget(self.databases, 1)
        top.addWidget(new_db)
        top.addWidget(del_db)
        adds = QVBoxLayout()  # one above the other: side by side their German words widened the panel to 330 px
        adds.addWidget(add_files)
        adds.addWidget(add_folder)
        running = QHBoxLayout()
        running.addWidget(self.progress, 1)
        running.addWidget(self.cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(self.tr("Knowledge base")))
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.backlog)
        layout.addLayout(adds)
        layout.addLayout(running)
        layout.addWidget(self.progress_label)
        layout.addWidget(self.report_button)
        self.set_ingesting(False)

    @property
    def database(self) -> str:
        return self.databases.currentText()

    def set_databases(self, names: list[str], select: str | None = None) -> None:
        current = select or self.database
        self.databases.blockSignals(True)
        self.databases.clear()
        self.databases.addItems(names)
        self.databases.blockSignals(False)
        if current in names:
            self.databases.setCurrentText(current)
        if self.database:
            self.databaseSelected.emit(self.database)

    def set_backlog(self, counts: dict[str, int]) -> None:
        """Say which knowledge bases still have passages without a vector, and how many."""
        locale = QLocale()
        items = " · ".join(f"{name}: {locale.toString(n)}" for name, n in sorted(counts.items()))
        self.backlog.setText(self.tr("Still to embed (found by their words until then): {0}").format(items))
        self.backlog.setVisible(bool(counts))

    def _selected(self, name: str) -> None:
        if name:
            self.databaseSelected.emit(name)

    def set_documents(self, docs: list[DocumentView]) -> None:
        self.model.set_documents(docs)

    # --- ingestion ------------------------------------------------------------------------------

    def set_ingesting(self, running: bool) -> None:
        self.progress.setVisible(running)
        self.cancel.setVisible(running)
        if running:
            self.progress.setRange(0, 0)
            text = self.tr("Adding to “{database}”: reading…")
            self.progress_label.setText(text.format(database=self.database))

    def show_progress(self, p: IngestProgressView) -> None:
        if p.stage == "extract":
            self.progress.setRange(0, max(1, p.pages_total))
            self.progress.setValue(p.pages_done)
            locale = QLocale()
            files = self.tr("{0}/%Ln file(s)", "", p.files_total).format(locale.toString(p.files_done))
            pages = self.tr("{0}/%Ln page(s)", "", p.pages_total).format(locale.toString(p.pages_done))
            text = self.tr("Reading {files}, {pages}").format(files=files, pages=pages)
        elif p.stage == "embed" and p.embedded >= p.to_embed:
            # every chunk embedded, the vectors still being stored: said so, not "100 % · 0:00 left" for 15 s
            self.progress.setRange(0, 0)
            text = self.tr("Storing the vectors… (search already works)")
        elif p.stage == "embed":
            self.progress.setRange(0, max(1, p.to_embed))
            self.progress.setValue(p.embedded)
            text = self.tr("Embedding {0}/%Ln chunk(s) (search already works)", "", p.to_embed).format(
                QLocale().toString(p.embedded))
        else:
            text = ""
        if p.stage == "extract" or (p.stage == "embed" and p.embedded < p.to_embed):
            text += self.tr(" · about {0} left").format(duration(p.eta_s))
        self.progress_label.setText(text)

    def show_report(self, report: IngestReportView) -> None:
        """An ingestion ended: its summary below the list, and its report when a file needs a look."""
        self.set_ingesting(False)
        self.show_summary(report)
        if report.count("rejected") or any(f.warnings for f in report.files):
            self._show_report()

    def show_summary(self, report: IngestReportView) -> None:
        """The last ingestion's one-line summary (and its report behind the button), in this panel's language."""
        self.last_report = report
        self.report_button.setEnabled(True)
        counts = {s: report.count(s) for s in self._counted()}
        text = ", ".join(self._counted()[s](n) for s, n in counts.items() if n) or self.tr("no PDF files found")
        if report.cancelled:
            text += self.tr(" — cancelled; add again to continue")
        if report.embed_error:
            text += f" — {report.embed_error}"
        self.progress_label.setText(text)

    def _counted(self) -> dict[str, Callable[[int], str]]:
        """How the summary line counts each outcome of an import."""
        return {
            "added": lambda n: self.tr("%Ln added", "", n),
            "updated": lambda n: self.tr("%Ln updated", "", n),
            "unchanged": lambda n: self.tr("%Ln unchanged", "", n),
            "moved": lambda n: self.tr("%Ln moved", "", n),
            "removed": lambda n: self.tr("%Ln removed", "", n),
            "duplicate": lambda n: self.tr("%Ln duplicate(s)", "", n),
            "rejected": lambda n: self.tr("%Ln rejected", "", n),
        }

    def _outcomes(self) -> dict[str, str]:
        """The outcome of one file, as the report names it."""
        return {"added": self.tr("added"), "updated": self.tr("updated"), "unchanged": self.tr("unchanged"),
                "moved": self.tr("moved"), "removed": self.tr("removed"), "duplicate": self.tr("duplicate"),
                "rejected": self.tr("rejected")}

    def _show_report(self) -> None:
        if self.last_report is None:
            return
        report, locale = self.last_report, QLocale()
        head = self.tr("“{database}”: %n file(s) in {seconds} s", "", len(report.files)).format(
            database=report.database, seconds=locale.toString(round(report.elapsed_s)))
        if report.pending_embeddings:
            head += self.tr(" · %Ln chunk(s) still to embed (search already works)", "", report.pending_embeddings)
        lines = [head, ""]
        for f in report.files:
            status = self._outcomes().get(f.status, f.status)
            line = f"{status}: {Path(f.path).name}"
            if f.pages or f.chunks:
                line += " — " + self.tr("{pages}, {chunks}").format(
                    pages=self.tr("%Ln page(s)", "", f.pages), chunks=self.tr("%Ln chunk(s)", "", f.chunks))
            lines += [line + (f" — {notice_text(f.reason)}" if f.reason else "")]
            lines += [f"    {notice_text(w)}" for w in f.warnings]
        if report.embed_error:
            lines += ["", report.embed_error]
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Ingestion report"), "\n".join(lines[:_SHOWN]),
                          parent=self)
        if len(lines) > _SHOWN:  # the whole list behind "Show Details" only when the box cannot show it all
            box.setDetailedText("\n".join(lines))
        box.open()

    # --- user actions ---------------------------------------------------------------------------

    def add_files(self) -> None:
        title = self.tr("Add PDFs to “{database}”").format(database=self.database)  # where they go, said
        files, _ = QFileDialog.getOpenFileNames(self, title, "", self.tr("PDF files (*.pdf)"))
        if files:
            self.ingestRequested.emit(self.database, [Path(f) for f in files])

    def add_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(
            self, self.tr("Add a folder of PDFs to “{database}”").format(database=self.database))
        if folder:
            self.ingestRequested.emit(self.database, [Path(folder)])

    def _create(self) -> None:
        name, ok = QInputDialog.getText(self, self.tr("New knowledge base"), self.tr("Name:"))
        if ok and name.strip():
            self.createRequested.emit(name.strip())

    def _delete(self) -> None:
        if not self.database:
            return
        answer = QMessageBox.question(self, self.tr("Delete knowledge base"), self.tr(
            "Delete the knowledge base '{0}'? Its index is removed; your PDF files are not touched.").format(self.database))
        if answer == QMessageBox.StandardButton.Yes:
            self.deleteRequested.emit(self.database)

    def _menu(self, pos) -> None:  # noqa: ANN001
        index = self.table.indexAt(pos)
        doc: DocumentView | None = self.model.data(index, Qt.ItemDataRole.UserRole)
        if doc is None:
            return
        menu = QMenu(self)
        menu.addAction(self.tr("Open"), lambda: self.openRequested.emit(doc))
        menu.addAction(self.tr("Tags…"), lambda: self._edit(doc, "tags", ", ".join(doc.tags)))
        menu.addAction(self.tr("Category…"), lambda: self._edit(doc, "category", doc.meta.get("category", "")))
        menu.addAction(self.tr("Metadata field…"), lambda: self._edit_field(doc))
        menu.addSeparator()
        menu.addAction(self.tr("Remove from knowledge base"), lambda: self.removeRequested.emit(self.database, doc.doc_id))
        menu.popup(self.table.viewport().mapToGlobal(pos))

    def _edit(self, doc: DocumentView, key: str, current: str) -> None:
        prompts = {"tags": self.tr("Tags (separated by commas):"), "category": self.tr("Category:")}
        value, ok = QInputDialog.getText(self, doc.file_name, prompts.get(key, key), text=current)
        if ok:
            self.metaRequested.emit(self.database, doc.doc_id, key, value)

    def _edit_field(self, doc: DocumentView) -> None:
        entry, ok = QInputDialog.getText(self, doc.file_name, self.tr("Field=value (e.g. exhibit=A-17):"))
        if ok and "=" in entry:
            key, value = entry.split("=", 1)
            self.metaRequested.emit(self.database, doc.doc_id, key.strip(), value.strip())

    # --- drag and drop --------------------------------------------------------------------------

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if event.mimeData().hasUrls():
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        paths = [Path(u.toLocalFile()) for u in event.mimeData().urls() if u.isLocalFile()]
        if paths and self.database:
            self.ingestRequested.emit(self.database, paths)
            event.acceptProposedAction()
