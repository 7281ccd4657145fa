"""An ingest run: find files, decide what changed, read new and changed PDFs in worker processes into
the catalog (one transaction per document), drop what vanished, then embed what is not embedded yet.

User files are only ever read. A run can be cancelled between page ranges and embedding batches;
whatever was committed stays, and the next run picks up the rest — including vectors that a killed
run never wrote.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from desktop.kb.storage.catalog import SqlCatalog
from desktop.kb.ingestion.docinfo import DocProbe, probe
from desktop.kb.search.embeddings import Embedder
from desktop.kb.errors import ConcurrentChange, KbError, PdfRejected
from desktop.kb.ingestion.pages import ExtractionPool, ExtractJob, PageResult, WorkerCrashed
from desktop.kb.search.lexical import fts_terms
from desktop.kb.models import Chunk, FileOutcome, IngestReport
from desktop.kb.ingestion.notices import MAX_LISTED, Notice, notice, pages_list
from desktop.kb.ingestion.pdf import open_pdf, tesseract_available
from desktop.kb.progress import Cancelled, CancelToken, IngestMeter, ProgressCallback
from desktop.kb.ingestion.scan import covered_by, expand, sha256_file
from desktop.kb.ingestion.structure import SectionTracker
from desktop.settings import KbSettings


class VectorSink(Protocol):
    def upsert(self, ids: list[str], vectors: np.ndarray, texts: list[str], metadatas: list[dict[str, Any]]) -> None: ...
    def delete(self, ids: list[str]) -> None: ...


def chunk_header(short_name: str | None, title: str, chunk: Chunk) -> str:
    """Where a chunk stands, given to the embedder and the lexical index beside its text."""
    parts = [short_name or title[:80], chunk.section or "", chunk.section_title or ""]
    return " ".join(p for p in parts if p)


def embed_text(short_name: str | None, title: str, chunk: Chunk) -> str:
    """What the embedder sees for a chunk: its place, then its text."""
    return f"{chunk_header(short_name, title, chunk)}\n{chunk.text}"


def vector_metadata(chunk: Chunk) -> dict[str, Any]:
    meta: dict[str, Any] = {"doc_id": chunk.doc_id, "page": chunk.page, "language": chunk.language}
    if chunk.section:
        meta["section"] = chunk.section
    return meta


@dataclass
class _Written:
    chunks: int = 0
    scanned: list[int] = field(default_factory=list)
    ocr: list[int] = field(default_factory=list)
    damaged: list[int] = field(default_factory=list)
    errors: list[tuple[int, str]] = field(default_factory=list)  # page, the reader's error


class Ingestor:
    def __init__(
        self,
        catalog: SqlCatalog,
        vectors: Callable[[], VectorSink],
        embedder: Callable[[], Embedder],
        settings: KbSettings,
        progress: ProgressCallback | None = None,
        cancel: CancelToken | None = None,
    ) -> None:
        self.catalog = catalog
        self._vectors = vectors  # opened only when there is something to embed or delete
        self._embedder = embedder
        self.settings = settings
        self.cancel = cancel or CancelToken()
        self.meter = IngestMeter(progress)
        self.pool = ExtractionPool(settings.ingest_workers)

    # --- runs -------------------------------------------------------------------------------------

    def run(self, paths: list[Path], database: str) -> IngestReport:
        report = IngestReport(database=database)
        try:
            candidates, report.files = expand(paths)
            self.meter.update(stage="extract", files_total=len(candidates), to_embed=self.catalog.count_to_embed(), force=True)
            for path in candidates:
                if self.cancel.cancelled:
                    break
                self.meter.update(file=path.name)
                outcome = self._ingest_file(path)
                if outcome is not None:
                    report.files.append(outcome)
                self.meter.update(files_done=self.meter.state.files_done + 1, force=True)
            if not self.cancel.cancelled:
                # after the files: a vanished path may turn out to have moved within the scanned folders;
                # on a team server a file missing here may be on the colleague's computer that added it
                if not self.catalog.shared:
                    report.files += self._remove_vanished(paths)
                self._finish_vectors(report)
        finally:
            self.pool.close()
        return self._close(report)

    def embed_only(self, database: str) -> IngestReport:
        """Finish what earlier runs left: queued vector deletions and chunks without vectors."""
        report = IngestReport(database=database)
        self._finish_vectors(report)
        return self._close(report)

    def _close(self, report: IngestReport) -> IngestReport:
        report.cancelled = self.cancel.cancelled
        report.pending_embeddings = self.catalog.count_to_embed()
        report.elapsed_s = time.monotonic() - self.meter.started
        self.meter.update(stage="done", file=None, force=True)
        return report

    # --- files ------------------------------------------------------------------------------------

    def _remove_vanished(self, roots: list[Path]) -> list[FileOutcome]:
        """Documents whose file lay in a scanned folder (or was named) and is gone leave the index."""
        out = []
        for row in self.catalog.doc_rows():
            if covered_by(row["path"], roots) and not os.path.exists(row["path"]):
                n = self.catalog.delete_document(row["doc_id"])
                out.append(FileOutcome(path=row["path"], status="removed", doc_id=row["doc_id"], chunks=n,
                                       reason=notice("vanished")))
        return out

    def _ingest_file(self, path: Path) -> FileOutcome | None:
        previous = self.catalog.doc_row(path=str(path))
        try:
            st = path.stat()
            if previous and previous["size_bytes"] == st.st_size and previous["mtime"] == st.st_mtime:
                if not self._wants_ocr(previous):
                    return FileOutcome(path=str(path), status="unchanged", doc_id=previous["doc_id"])
                return self._guarded(path, lambda: self._add(path, st, previous["doc_id"], previous["doc_id"]))
            digest = sha256_file(path)
        except PermissionError:
            return FileOutcome(path=str(path), status="rejected", reason=notice("permission_denied"))
        except OSError as exc:
            return FileOutcome(path=str(path), status="rejected", reason=notice("unreadable_file", error=str(exc.strerror or exc)))
        same = self.catalog.doc_row(doc_id=digest)
        if same is not None:
            return self._known_content(path, st, same, previous)
        return self._guarded(path, lambda: self._add(path, st, digest, previous["doc_id"] if previous else None))

    def _wants_ocr(self, row: sqlite3.Row) -> bool:
        """A document stored with scanned pages is read again once OCR can be done."""
        return bool(row["scanned_pages"]) and self.settings.ocr and tesseract_available()

    def _guarded(self, path: Path, work: Callable[[], FileOutcome]) -> FileOutcome | None:
        try:
            return work()
        except Cancelled:
            return None
        except PdfRejected as exc:
            return FileOutcome(path=str(path), status="rejected", reason=exc.reason)
        except WorkerCrashed:
            return FileOutcome(path=str(path), status="rejected", reason=notice("reader_crashed"))
        except (sqlite3.Error, KbError):
            raise  # our own storage failing is not the file's fault: stop the run
        except Exception as exc:  # a PDF that breaks the reader must not stop the run
            return FileOutcome(path=str(path), status="rejected", reason=notice("read_failed", error=str(exc)))

    def _known_content(self, path: Path, st: os.stat_result, same: sqlite3.Row, previous: sqlite3.Row | None) -> FileOutcome:
        if same["path"] == str(path):  # touched but unchanged: remember the new mtime to skip hashing next time
            with self.catalog.transaction() as db:
                self.catalog.update_document(db, same["doc_id"], mtime=st.st_mtime, size_bytes=st.st_size)
            return FileOutcome(path=str(path), status="unchanged", doc_id=same["doc_id"])
        if os.path.exists(same["path"]) or self.catalog.shared:  # (a colleague's copy: not moved, there too)
            return FileOutcome(path=str(path), status="duplicate", doc_id=same["doc_id"],
                               reason=notice("duplicate", path=same["path"]))
        # moved or renamed: keep its chunks and vectors, follow the new path
        with self.catalog.transaction() as db:
            if previous is not None:
                self.catalog.delete_document(previous["doc_id"])
            self.catalog.update_document(db, same["doc_id"], path=str(path), file_name=path.name, mtime=st.st_mtime)
        return FileOutcome(path=str(path), status="moved", doc_id=same["doc_id"], reason=notice("moved", path=same["path"]))

    def _add(self, path: Path, st: os.stat_result, digest: str, replaces: str | None) -> FileOutcome:
        try:
            return self._write(path, st, digest, replaces)
        except ConcurrentChange:  # on a team server: another workstation added the same PDF meanwhile
            row = self.catalog.doc_row(doc_id=digest)
            if row is None:
                raise
            return FileOutcome(path=str(path), status="duplicate", doc_id=digest,
                               reason=notice("duplicate", path=row["path"]))

    def _write(self, path: Path, st: os.stat_result, digest: str, replaces: str | None) -> FileOutcome:
        doc = open_pdf(path)
        try:
            info = probe(doc, path)
        finally:
            doc.close()
        self.meter.update(pages_total=self.meter.state.pages_total + info.page_count)
        with self.catalog.transaction() as db:  # the whole document or nothing
            if replaces:
                self.catalog.delete_document(replaces)
            written = self._write_chunks(db, path, digest, info)
            self.catalog.store_file(db, digest, path)
            warnings = self._warnings(written, info)
            self.catalog.insert_document(db, {
                "doc_id": digest, "file_name": path.name, "path": str(path), "title": info.title,
                "short_name": info.short_name, "aliases": info.aliases, "language": info.language,
                "pages": info.page_count, "size_bytes": st.st_size, "mtime": st.st_mtime, "issued": info.issued,
                "warnings": warnings, "scanned_pages": len(written.scanned),
            })
        status = "updated" if replaces else "added"
        return FileOutcome(path=str(path), status=status, doc_id=digest, pages=info.page_count,
                           chunks=written.chunks, warnings=warnings)

    def _jobs(self, path: Path, info: DocProbe) -> list[ExtractJob]:
        step = self.settings.pages_per_task
        ocr = self.settings.ocr_languages if self.settings.ocr else None
        return [
            ExtractJob(str(path), first, min(first + step, info.page_count), info.body_size, info.furniture,
                       self.settings.chunking, ocr, info.language)
            for first in range(0, info.page_count, step)
        ]

    def _write_chunks(self, db: sqlite3.Connection, path: Path, digest: str, info: DocProbe) -> _Written:
        written = _Written()
        tracker = SectionTracker()
        last = time.monotonic()
        for results in self.pool.run(self._jobs(path, info), lambda: self.cancel.cancelled):
            before = written.chunks
            for page in results:
                self._write_page(db, digest, info, page, tracker, written)
            now = time.monotonic()
            self.meter.extracted(len(results), written.chunks - before, now - last)
            last = now
            self.cancel.check()
        self.cancel.check()
        if written.chunks == 0:
            raise PdfRejected(self._why_empty(written, info))
        return written

    def _write_page(self, db: sqlite3.Connection, digest: str, info: DocProbe, page: PageResult,
                    tracker: SectionTracker, written: _Written) -> None:
        self.catalog.insert_page(db, digest, page.page, page.text, page.ocr)
        if page.scanned:
            written.scanned.append(page.page)
        if page.ocr:
            written.ocr.append(page.page)
        if page.damaged:
            written.damaged.append(page.page)
        if page.error:
            written.errors.append((page.page, page.error))
        for piece in page.pieces:
            opened = [h for h in map(tracker.observe, piece.headings) if h.kind == "unit"]
            chunk = Chunk(
                chunk_id=f"{digest[:20]}:{written.chunks:06d}", doc_id=digest, page=piece.page, ordinal=written.chunks,
                char_start=piece.start, char_end=piece.end, section=tracker.section,
                section_title=tracker.section_title, heading_path=tracker.heading_path, language=page.language,
                text=piece.text, kind="table" if piece.table else "text", box=list(piece.box) if piece.box else None,
            )
            for heading in opened:
                for label in heading.labels:
                    self.catalog.insert_section(db, digest, label, heading.title, piece.page, chunk.ordinal)
            head = chunk_header(info.short_name, info.title, chunk)
            self.catalog.insert_chunk(db, chunk, fts_terms(head, chunk.language), fts_terms(chunk.text, chunk.language))
            written.chunks += 1

    def _why_empty(self, written: _Written, info: DocProbe) -> Notice:
        if written.errors and len(written.errors) >= info.page_count:
            page, error = written.errors[0]
            return notice("no_page_readable", page=page, error=error)
        if info.repaired or written.damaged:
            return notice("damaged_no_text")
        if written.scanned:
            if not self.settings.ocr:
                return notice("scan_ocr_off")
            if not tesseract_available():
                return notice("scan_no_tesseract")
            return notice("scan_ocr_empty")
        if written.ocr:
            return notice("ocr_no_text")
        return notice("no_text")

    def _warnings(self, written: _Written, info: DocProbe) -> list[Notice]:
        out = []
        if written.damaged:
            out.append(notice("damaged_pages", pages=pages_list(written.damaged)))
        elif info.repaired:
            out.append(notice("damaged_repaired"))
        if written.scanned:
            key = ("scanned_no_tesseract" if not tesseract_available()
                   else "scanned_ocr_off" if not self.settings.ocr else "scanned_ocr_empty")
            out.append(notice(key, count=len(written.scanned), pages=pages_list(written.scanned)))
        if written.ocr:
            out.append(notice("ocr_pages", count=len(written.ocr), pages=pages_list(written.ocr)))
        out += [notice("page_unreadable", page=page, error=error) for page, error in written.errors[:MAX_LISTED]]
        if len(written.errors) > MAX_LISTED:
            out.append(notice("more_unreadable", count=len(written.errors) - MAX_LISTED))
        return out

    # --- vectors ----------------------------------------------------------------------------------

    def _finish_vectors(self, report: IngestReport) -> None:
        try:
            self._flush_vector_deletes()
            self._embed_pending(report)
        except KbError as exc:
            report.embed_error = str(exc)
        except Exception as exc:  # the vector store's own errors: the text index stays usable
            report.embed_error = f"the vector store failed: {exc}"

    def _flush_vector_deletes(self) -> None:
        ids = self.catalog.pending_vector_deletes()
        if ids:
            self._vectors().delete(ids)
            self.catalog.clear_vector_deletes(ids)

    def _embed_pending(self, report: IngestReport) -> None:
        """Embed every chunk without a vector; the report counts each batch as soon as it is stored."""
        total = self.catalog.count_to_embed()
        self.meter.update(stage="embed", to_embed=total, embedded=0, force=True)
        if total == 0:
            return
        embedder, vectors = self._embedder(), self._vectors()
        names: dict[str, tuple[str | None, str]] = {}
        while not self.cancel.cancelled:
            batch = self.catalog.to_embed(self.settings.embed_batch)
            if not batch:
                break
            if any(c.doc_id not in names for c in batch):  # on a team server, others add documents meanwhile
                names = self.catalog.document_names()
            started = time.monotonic()
            texts = [embed_text(*names[c.doc_id], c) for c in batch]
            ids = [c.chunk_id for c in batch]
            vectors.upsert(ids, embedder.embed_passages(texts), [c.text for c in batch], [vector_metadata(c) for c in batch])
            self.catalog.mark_embedded(ids)
            report.embedded += len(batch)
            self.meter.embedded(len(batch), time.monotonic() - started)
