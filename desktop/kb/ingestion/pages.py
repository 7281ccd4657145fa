"""Extraction work that runs in worker processes: a range of pages of one PDF → page texts and chunk
pieces. A job is a few dozen pages, so a 2,000-page file streams through the workers in bounded
memory and one huge file still uses every core."""

from __future__ import annotations

import multiprocessing
import multiprocessing.connection
import os
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field

import pymupdf

from desktop.kb.ingestion.chunking import Piece, chunk_page
from desktop.kb.language import detect_language
from desktop.kb.ingestion.pdf import read_page
from desktop.settings import ChunkingSettings


@dataclass(frozen=True)
class ExtractJob:
    path: str
    first: int  # 0-based, inclusive
    stop: int  # exclusive
    body_size: float
    furniture: frozenset[str]
    sizes: ChunkingSettings
    ocr_languages: str | None
    language: str


@dataclass
class PageResult:
    page: int  # 1-based
    text: str
    language: str
    pieces: list[Piece] = field(default_factory=list)
    ocr: bool = False
    scanned: bool = False
    damaged: bool = False
    error: str | None = None


def extract_range(job: ExtractJob) -> list[PageResult]:
    doc = pymupdf.open(job.path, filetype="pdf")  # the empty password, if any, is tried on open
    try:
        results = []
        for index in range(job.first, job.stop):
            layout = read_page(doc, index, job.ocr_languages)
            results.append(
                PageResult(
                    page=layout.page,
                    text=layout.text,
                    language=detect_language(layout.text, default=job.language),
                    pieces=chunk_page(layout, job.body_size, job.furniture, job.sizes),
                    ocr=layout.ocr,
                    scanned=layout.scanned,
                    damaged=layout.damaged,
                    error=layout.error,
                )
            )
        return results
    finally:
        doc.close()


def _exit_with_parent() -> None:
    """In a worker: end when the process that started it ends, even by SIGKILL, instead of lingering."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return

    def watch() -> None:
        multiprocessing.connection.wait([parent.sentinel])
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class WorkerCrashed(Exception):
    """A worker process died while reading a file (a PDF that crashes MuPDF, or memory)."""


class ExtractionPool:
    """Runs jobs in worker processes (or inline with ``workers=0``) and yields results in job order,
    with a bounded number in flight."""

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: the parent holds threads (Chroma, OpenMP) that fork would copy in a broken state
            self._pool = ProcessPoolExecutor(self.workers, mp_context=multiprocessing.get_context("spawn"),
                                             initializer=_exit_with_parent)
        return self._pool

    def run(self, jobs: list[ExtractJob], cancelled: Callable[[], bool]) -> Iterator[list[PageResult]]:
        if self.workers <= 0:
            for job in jobs:
                if cancelled():
                    return
                yield extract_range(job)
            return
        pool = self._executor()
        window = max(2, 2 * self.workers)
        pending: list[Future[list[PageResult]]] = []
        queue = iter(jobs)
        try:
            for job in queue:
                pending.append(pool.submit(extract_range, job))
                if len(pending) < window:
                    continue
                yield self._take(pending)
                if cancelled():
                    return
            while pending:
                yield self._take(pending)
                if cancelled():
                    return
        finally:
            for fut in pending:
                fut.cancel()

    def _take(self, pending: list[Future[list[PageResult]]]) -> list[PageResult]:
        try:
            return pending.pop(0).result()
        except BrokenProcessPool as exc:
            self.close()
            raise WorkerCrashed("the PDF reader crashed on this file") from exc

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
