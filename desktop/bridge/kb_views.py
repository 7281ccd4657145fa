"""What the window shows of the knowledge bases and the LLM server: immutable views the bridge builds
from the knowledge base's and the LLM client's own models."""

from __future__ import annotations

from dataclasses import dataclass

from desktop.service import (
    DocumentInfo, FileOutcome, Health, IngestProgress, IngestReport, ModelInfo, Notice, PullProgress, ServerHealth,
)


@dataclass(frozen=True)
class NoticeView:
    """Something the knowledge base says about a file: the window words it by ``key`` in its language;
    ``english`` is the sentence for a key it has no words for."""

    key: str
    values: dict[str, str | int]
    english: str


@dataclass(frozen=True)
class DocumentView:
    doc_id: str
    file_name: str
    path: str
    title: str
    short_name: str | None
    pages: int
    chunks: int
    warnings: tuple[NoticeView, ...]
    meta: dict[str, str]
    tags: tuple[str, ...]
    pending_embeddings: int


@dataclass(frozen=True)
class IngestProgressView:
    stage: str  # scan, extract, embed, done
    files_done: int
    files_total: int
    pages_done: int
    pages_total: int
    embedded: int
    to_embed: int
    eta_s: float | None


@dataclass(frozen=True)
class FileView:
    """What happened to one file of an ingestion."""

    path: str
    status: str  # added, updated, unchanged, moved, removed, duplicate, rejected
    reason: NoticeView | None
    warnings: tuple[NoticeView, ...]
    pages: int
    chunks: int


@dataclass(frozen=True)
class IngestReportView:
    database: str
    files: tuple[FileView, ...]
    cancelled: bool
    embedded: int
    pending_embeddings: int
    embed_error: str | None
    elapsed_s: float

    def count(self, status: str) -> int:
        return sum(1 for f in self.files if f.status == status)


@dataclass(frozen=True)
class HealthView:
    ok: bool  # a server answers
    model_ready: bool
    host: str
    version: str | None
    models: tuple[str, ...]
    message: str


@dataclass(frozen=True)
class ServerHealthView:
    ok: bool
    where: str
    message: str
    version: str
    pgvector: str | None
    tls: bool
    can_write: bool
    databases: int


@dataclass(frozen=True)
class ModelView:
    name: str
    size_bytes: int | None
    family: str | None
    parameter_size: str | None
    context_length: int | None
    capabilities: tuple[str, ...]


@dataclass(frozen=True)
class PullView:
    status: str
    completed: int | None
    total: int | None


def notice_view(n: Notice) -> NoticeView:
    return NoticeView(n.key, dict(n.values), n.text)


def document_view(d: DocumentInfo) -> DocumentView:
    return DocumentView(d.doc_id, d.file_name, d.path, d.title, d.short_name, d.pages, d.chunks,
                        tuple(map(notice_view, d.warnings)), dict(d.meta), tuple(d.tags), d.pending_embeddings)


def progress_view(p: IngestProgress) -> IngestProgressView:
    return IngestProgressView(p.stage, p.files_done, p.files_total, p.pages_done, p.pages_total, p.embedded, p.to_embed,
                              p.eta_s)


def _file_view(f: FileOutcome) -> FileView:
    return FileView(f.path, f.status, f.reason and notice_view(f.reason), tuple(map(notice_view, f.warnings)), f.pages,
                    f.chunks)


def report_view(r: IngestReport) -> IngestReportView:
    return IngestReportView(r.database, tuple(_file_view(f) for f in r.files), r.cancelled, r.embedded,
                            r.pending_embeddings, r.embed_error, r.elapsed_s)


def health_view(h: Health) -> HealthView:
    return HealthView(h.ok, h.model_ready, h.host, h.version, tuple(h.models), h.message)


def server_health_view(h: ServerHealth) -> ServerHealthView:
    return ServerHealthView(h.ok, h.where, h.message, h.version, h.pgvector, h.tls, h.can_write, h.databases)


def model_view(m: ModelInfo) -> ModelView:
    return ModelView(m.name, m.size_bytes, m.family, m.parameter_size, m.context_length, tuple(m.capabilities))


def pull_view(p: PullProgress) -> PullView:
    return PullView(p.status, p.completed, p.total)
